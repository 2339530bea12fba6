import { loadEnv, type Config } from "./env";
import { BaseRailMisconfigured, checkBaseRail } from "./features/escrow";
import { createBaseChain } from "./lib/base-chain";

// Start-up shared by the API process (main.ts) and the settlement process (worker.ts): a bad
// setting or a chain that disagrees with the configuration stops the process with a message
// naming it, before the database opens (docs/base-rail.md "Start-up checks"). An unreachable RPC
// or a resolver without RESOLVER_ROLE does not: the process starts with the base rail marked
// unavailable and checks again in the background (docs/base-rail.md "Degrade, never exit").

function exitWith(e: unknown): never {
  console.error((e as Error).message);
  process.exit(1);
}

export async function checkedConfig(): Promise<Config> {
  let config: Config;
  try {
    config = loadEnv();
  } catch (e) {
    exitWith(e);
  }
  if (config.baseRail)
    await checkBaseRail(createBaseChain(config.baseRail), config).catch((e: unknown) => {
      if (e instanceof BaseRailMisconfigured && e.kind !== "misconfigured")
        console.error(
          `${e.message}\nbase rail unavailable (${e.kind}): starting anyway, checked again in the background`,
        );
      else exitWith(e);
    });
  return config;
}
