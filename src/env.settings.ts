import { z } from "zod";
import { SERVER_SETTINGS } from "./env.settings.server";
import { CHAIN_SETTINGS } from "./env.settings.chain";
import { EDGE_SETTINGS } from "./env.settings.edge";
import { FEATURE_SETTINGS } from "./env.settings.features";
import type { Setting } from "./env.settings.schemas";

export { contrastOnWhite, privateKey } from "./env.settings.schemas";
export type { AssetConfig, ChainDepth, RatePolicy } from "./env.settings.schemas";

// Every setting, spelled once: its env name, zod schema (with the default), the default as the
// docs show it, a one-line doc and the Config property it fills. src/env.ts parses and maps it;
// docs/configuration.md is generated from it (`npx tsx scripts/config-docs.ts`, drift-tested by
// test/config/settings-table.test.ts). A setting without `key` feeds a Config property that
// parseEnv derives from several settings (env.ts). The table is written in four parts by area
// (env.settings.server.ts, .chain.ts, .edge.ts, .features.ts; the value schemas they share in
// env.settings.schemas.ts), each setting in exactly one; SETTINGS is their union, in that order.

export const SETTINGS = {
  ...SERVER_SETTINGS,
  ...CHAIN_SETTINGS,
  ...EDGE_SETTINGS,
  ...FEATURE_SETTINGS,
} as const satisfies Record<string, Setting>;

type Shape = { [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K]["schema"] };
/** The environment's schema: every setting's zod schema under its env name. */
export const EnvSchema = z.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, s]) => [name, s.schema])) as Shape,
);
