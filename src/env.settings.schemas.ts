import { z } from "zod";

// The value schemas of the settings table (src/env.settings.ts) and the shape of one setting:
// integers with bounds, flags, rate policies, JSON lists, chain depths, addresses and keys.

const uintString = z.string().regex(/^(0|[1-9][0-9]{0,77})$/, "must be a base-10 integer string");

export const AssetSchema = z.object({
  symbol: z.string().regex(/^[A-Za-z0-9._-]{1,16}$/),
  decimals: z.number().int().min(0).max(36),
  /** Non-refundable spam fee charged at mission creation, base units (AIP-1 Security Considerations). */
  spam_fee: uintString,
  /** USD price of one whole unit, for the reputation K factor and min_reward_usd. */
  usd_price: z.number().nonnegative().default(1),
  /** Contract addresses per chain, e.g. {"base": "0x8335..."}. */
  addresses: z.record(z.string(), z.string().regex(/^0x[0-9a-fA-F]{40}$/)).default({}),
});
export type AssetConfig = z.infer<typeof AssetSchema>;

export const RegistrySchema = z.object({
  domain: z.string().min(1).max(253),
  signer: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  /** ttl_seconds is not covered by the §1.4 signature, so the operator caps it per registry. */
  max_ttl_seconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),
});
// AIP-1 Security Considerations: "whitelist known oracles and warn on unknown ones".
export const OracleSchema = z.object({
  chain: z.string().min(1).max(32).default("base"),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  method: z.string().min(1).max(256),
});
/** "safe" / "finalized" (a block tag) or a number of blocks (N confirmations: included N-1 blocks below the head). */
export const depthPolicy = (tag: "safe" | "finalized") =>
  z.string().transform((s, ctx): ChainDepth => {
    if (s === tag) return { kind: "tag", tag };
    if (/^[1-9][0-9]{0,3}$/.test(s)) return { kind: "blocks", blocks: Number(s) };
    ctx.addIssue({ code: "custom", message: `must be "${tag}" or a number of blocks (1-9999)` });
    return z.NEVER;
  });
export type ChainDepth = { kind: "tag"; tag: "safe" | "finalized" } | { kind: "blocks"; blocks: number };

/** WCAG 2 contrast ratio of a #rrggbb colour against white. */
export function contrastOnWhite(hex: string): number {
  const ch = (i: number) => {
    const v = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * ch(0) + 0.7152 * ch(1) + 0.0722 * ch(2);
  return 1.05 / (l + 0.05);
}

export const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
export const privateKey = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");

export const jsonOf = <T extends z.ZodTypeAny>(schema: T) =>
  z
    .string()
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be valid JSON" });
        return z.NEVER;
      }
    })
    .pipe(schema);

export const TrustedIssuerSchema = z.object({
  url: z.string().url().max(300),
  server_address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .optional(),
  trust_factor: z.number().min(0).max(1).optional(),
  // AIP-3 §6 entry fields, published at /reputation/trusted-issuers.
  chain_family: z.string().min(1).max(32).optional(),
  chain_id: z.string().min(1).max(64).optional(),
  added: z.string().datetime({ offset: true }).optional(),
  // A private-network issuer (docs/aip-3-4.md "Private issuers"): its manifest is fetched from
  // exactly this address (and the URL's port), never any other private address.
  private_address: z.union([z.ipv4(), z.ipv6()]).optional(),
});

export const csvInts = z.string().transform((s, ctx) => {
  const parts = s
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const out = parts.map(Number);
  if (out.length === 0 || out.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
    ctx.addIssue({ code: "custom", message: "must be a comma-separated list of positive integers" });
    return z.NEVER;
  }
  return out;
});

/** A token-bucket policy "<quota>/<window seconds>": `quota` requests at once, refilled over the window. */
const ratePolicy = z.string().transform((s, ctx): RatePolicy => {
  const m = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,5})$/.exec(s.trim());
  if (!m) {
    ctx.addIssue({ code: "custom", message: 'must be "<quota>/<window seconds>", e.g. "60/60"' });
    return z.NEVER;
  }
  return { quota: Number(m[1]), windowSeconds: Number(m[2]) };
});
/** A rate-policy setting; the docs show its default as `<quota>/<window seconds>`. */
export const rate = (quota: number, windowSeconds: number) => ({
  schema: ratePolicy.default({ quota, windowSeconds }),
  shown: `\`${quota}/${windowSeconds}\``,
});
export interface RatePolicy {
  quota: number;
  windowSeconds: number;
}

/** "true" / "false" as a boolean. */
/** An integer setting in [min, max]; the docs show its default. */
export const int = (min: number, max: number, byDefault: number) => ({
  schema: z.coerce.number().int().min(min).max(max).default(byDefault),
  shown: `\`${byDefault}\``,
});

const flag = z.enum(["true", "false"]).transform((v) => v === "true");
/** A true/false setting; the docs show its default. */
export const flagDefault = (byDefault: boolean) => ({ schema: flag.default(byDefault), shown: `\`${byDefault}\`` });

export interface TrustedIssuer {
  url: string;
  server_address?: string | undefined;
  trust_factor?: number | undefined;
  chain_family?: string | undefined;
  chain_id?: string | undefined;
  added?: string | undefined;
  private_address?: string | undefined;
}

export interface Setting {
  schema: z.ZodType;
  /** The default as docs/configuration.md shows it ("unset" when there is none). */
  shown: string;
  /** One line for docs/configuration.md. */
  doc: string;
  /** The Config property it fills as parsed: "port", or "abuse.checkWorkers" inside a group. */
  key?: string;
}
