import { loadEnv, type Config } from "./env";
import type { Deps } from "./deps";

// Start-up shared by the API process (main.ts) and the settlement process (worker.ts): a bad
// setting or a chain that disagrees with the configuration stops the process with a message
// naming it, before the database opens (docs/base-rail.md "Start-up checks"). An unreachable RPC
// or a resolver without RESOLVER_ROLE does not: the process starts with the base rail marked
// unavailable and checks again in the background (docs/base-rail.md "Degrade, never exit").

function exitWith(e: unknown): never {
  console.error((e as Error).message);
  process.exit(1);
}

/**
 * The API process binds its port before any set-up (database, migrations, keys, chain checks): a
 * busy port is one line naming the setting, not a raw EADDRINUSE after the set-up's seconds.
 * The probe closes at once; main.ts also turns a bind error at listen time into the same line.
 */
export function portInUse(config: Pick<Config, "port" | "host">, code = "EADDRINUSE"): string {
  return code === "EACCES"
    ? `cannot listen on ${config.host}:${config.port} (permission denied): set PORT to a port above 1023`
    : `port ${config.port} on ${config.host} is in use: set PORT to a free port (PORT=0 picks one), or stop the process holding it`;
}

async function checkPort(config: Config): Promise<void> {
  if (config.port === 0) return;
  const { createServer } = await import("node:net");
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (e: NodeJS.ErrnoException) =>
      e.code === "EADDRINUSE" || e.code === "EACCES" ? reject(new Error(portInUse(config, e.code))) : reject(e),
    );
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

export async function checkedConfig(opts: { listens?: boolean } = {}): Promise<Config> {
  let config: Config;
  try {
    config = loadEnv();
  } catch (e) {
    exitWith(e);
  }
  if (opts.listens) await checkPort(config).catch(exitWith);
  if (config.baseRail) {
    // Loaded only with the rail on: main.ts keeps what it loads before the database opens small.
    const [{ BaseRailMisconfigured, checkBaseRail }, { createBaseChain }] = await Promise.all([
      import("./features/rail"),
      import("./lib/base-chain.viem"),
    ]);
    await checkBaseRail(createBaseChain(config.baseRail), config).catch((e: unknown) => {
      if (e instanceof BaseRailMisconfigured && e.kind !== "misconfigured")
        console.error(
          `${e.message}\nbase rail unavailable (${e.kind}): starting anyway, checked again in the background`,
        );
      else exitWith(e);
    });
  }
  return config;
}

/**
 * Once the database is open: a configuration that forgets a contract still holding this server's
 * slots stops the process, naming the address and the setting (docs/base-rail.md "Migrating to a
 * new escrow") — else its awards would sit queued with no error and /transparency would drop it.
 */
export async function refuseForgottenContracts(deps: Deps): Promise<void> {
  const { forgottenContracts } = await import("./features/rail");
  const problems = await forgottenContracts(deps);
  if (problems.length === 0) return;
  console.error(`base rail misconfigured:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  await deps.database.close().catch(() => undefined);
  process.exit(1);
}
