import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { exitCodeFor, OabpError } from "../errors.js";
import { EXIT, makeContext, UsageError, type Ctx } from "./context.js";
import { Config } from "./config.js";
import { LIST_QUERY_FLAGS, REQUEST_FLAGS } from "./flags.js";
import type { Out } from "./output.js";

// `oabp`: the command line over @oabp/client (entry: main.ts). Exit codes: 0 ok, 1 failed (invalid receipt, voided
// mission), 2 usage, 3 not signed in / forbidden, 4 not found, 5 conflict, 6 rejected input,
// 7 server or network unavailable, 8 timed out.

const USAGE = `usage: oabp <command> [options]

  keygen [file] [--keystore-out --password-file F]  new private key in a 0600 file (or an encrypted keystore); prints the address
                                without a file: <config dir>/keys/<profile>.key, remembered by the profile
  login                         sign in with SIWE (the profile's key | --key-file | --keystore [--password-file] | OABP_PRIVATE_KEY)
  logout
  missions list [${LIST_QUERY_FLAGS.map((f) => `--${f}`).join(" ")} --limit --all]
  missions get <id> | void <id> | submissions <id>
  missions create --title T --reward 25 (whole units; or --reward-base-units N) [--asset USDC] [--chain base] [--verification creator_judges]
                  [--params JSON] [--deadline +3d|ISO] [--tags a,b] [--description D] [--language en] | --file body.json
  claim <mission> [--release]
  submit <mission> [file|-] [--uri URI] [--salt S]       inline content, or --uri with its hash computed
  commit <mission> [file|-] --salt S                     commit-reveal: the commitment of your content
  reveal <mission> [file|-] --salt S [--uri URI]
  award <mission> <submission>[:share_bps] …            base rail: signs the releases of your deposit
  vote <mission> <submission> <stake>
  balance [agent] | agent [agent]
  withdraw <amount> [--asset USDC] | withdraw list      your ledger balance to your wallet on Base; 25 = 25 USDC, --base-units for exact
  receipt get <mission> <submission> [--out file]
  receipt verify <file|URL|-|mission submission> [--manifest file|URL] [--remote]
  watch <mission> [--wait-appeal] | watch [--q --tag --status …] [--max N]   [--interval s] [--max-polls n]
  fund <mission> [--rpc-url URL] [--permit|--approve]    base rail: permit (or approve) + fundUntil, wait until open
  topup <mission> <amount> [--rpc-url URL] [--permit|--approve]    add to the reward; base rail: funds its slot
  webhooks add <url> --events a,b [--filters JSON] | list | rm <id>
  admin credit <agent> <amount> [--asset USDC]           operator (OABP_ADMIN_TOKEN); 250 = 250 USDC, --base-units for exact base units
  mcp                                                    stdio MCP server bridged to <server>/mcp

global: --version --server URL (OABP_URL) --profile NAME (OABP_PROFILE) --json --timeout s --admin-token T
`;

export const STRING_FLAGS = [
  "server",
  "profile",
  "key-file",
  "keystore",
  "password-file",
  "admin-token",
  "timeout",
  ...LIST_QUERY_FLAGS,
  ...REQUEST_FLAGS,
  "limit",
  "max",
  "chain",
  "params",
  "idempotency-key",
  "out",
  "manifest",
  "interval",
  "max-polls",
  "rpc-url",
  "reward-base-units",
];
export const BOOL_FLAGS = [
  "json",
  "base-units",
  "all",
  "release",
  "remote",
  "help",
  "keystore-out",
  "permit",
  "approve",
  "wait-appeal",
  "version",
];

/** Commands and their subcommands (docs are checked against this list). */
export const SUBCOMMANDS: Record<string, string[]> = {
  missions: ["list", "get", "create", "void", "submissions"],
  receipt: ["get", "verify"],
  webhooks: ["add", "list", "rm"],
  admin: ["credit"],
};

// Command modules are imported on use: `oabp --help` loads none, a read loads no signing code
// (bench/README.md "CLI"). The module names (account.js, missions.js) are unchanged.
const acc = () => import("./account.js");
const mis = () => import("./missions.js");

export const COMMANDS: Record<string, (ctx: Ctx) => Promise<number>> = {
  keygen: async (c) => (await acc()).keygen(c),
  login: async (c) => (await acc()).login(c),
  logout: async (c) => (await acc()).logout(c),
  missions: async (c) => (await mis()).missions(c),
  claim: async (c) => (await mis()).claim(c),
  submit: async (c) => (await mis()).submit(c),
  reveal: async (c) => (await mis()).submit(c, true),
  commit: async (c) => (await mis()).commit(c),
  award: async (c) => (await mis()).award(c),
  vote: async (c) => (await mis()).vote(c),
  balance: async (c) => (await acc()).balance(c),
  withdraw: async (c) => (await acc()).withdraw(c),
  agent: async (c) => (await acc()).agent(c),
  receipt: async (c) => (await acc()).receipt(c),
  watch: async (c) => (await mis()).watch(c),
  fund: async (c) => (await mis()).fund(c),
  topup: async (c) => (await import("./top-up.js")).topUp(c),
  webhooks: async (c) => (await acc()).webhooks(c),
  admin: async (c) => (await acc()).admin(c),
  mcp: async (c) => (await acc()).mcp(c),
};

/** This package's version: the nearest @oabp/client package.json above this module (src/ or dist/, bundled or not). */
function clientVersion(): string {
  for (let dir = new URL(".", import.meta.url); dir.pathname !== "/"; dir = new URL("..", dir)) {
    try {
      const pkg = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "@oabp/client" && pkg.version) return pkg.version;
    } catch {
      // no package.json here: look one level up
    }
  }
  return "unknown";
}

/** What to do after an identity error: sign in, or pick the profile that is signed in. */
function nextStep(
  command: string | undefined,
  code: string,
  flags: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (code !== "ANONYMOUS_SUBMISSION_REJECTED" && code !== "UNAUTHORIZED" && code !== "FORBIDDEN") return undefined;
  if (command === "admin")
    return "operator commands need the admin token: OABP_ADMIN_TOKEN=$(cat <data dir>/admin-token), or --admin-token";
  if (code === "FORBIDDEN") return undefined;
  const profile = typeof flags.profile === "string" ? flags.profile : (env.OABP_PROFILE ?? "default");
  const others = Object.keys(new Config(env).data.profiles).filter((p) => p !== profile);
  return (
    `not signed in as profile "${profile}": run \`oabp login --profile ${profile}\` (after \`oabp keygen --profile ${profile}\` for a new key)` +
    (others.length ? `, or add --profile ${others.join(" | ")}` : "")
  );
}

export async function run(
  argv: string[],
  io: { out: Out; env: NodeJS.ProcessEnv; stdin: NodeJS.ReadableStream },
): Promise<number> {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries([
        ...STRING_FLAGS.map((f) => [f, { type: "string" as const }]),
        ...BOOL_FLAGS.map((f) => [f, { type: "boolean" as const }]),
      ]),
    }) as typeof parsed;
  } catch (e) {
    io.out.err(`oabp: ${(e as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  if (parsed.values.version) {
    io.out.write(`oabp ${clientVersion()}\n`);
    return EXIT.ok;
  }
  const [command, ...args] = parsed.positionals;
  const handler = command ? COMMANDS[command] : undefined;
  if (!handler || parsed.values.help) {
    if (parsed.values.help) io.out.write(USAGE);
    else io.out.err(`${command ? `oabp: unknown command "${command}"\n` : ""}${USAGE}`);
    return parsed.values.help ? EXIT.ok : EXIT.usage;
  }
  const out: Out = { ...io.out, json: parsed.values.json === true };
  try {
    const ctx = makeContext({ args, flags: parsed.values as Ctx["flags"] }, out, io.env, io.stdin);
    return await handler(ctx);
  } catch (e) {
    if (e instanceof UsageError) {
      out.err(`oabp: ${e.message}\n`);
      return EXIT.usage;
    }
    if (e instanceof OabpError) {
      if (out.json)
        out.write(
          `${JSON.stringify({ error: e.code, message: e.message, status: e.status, details: e.details, request_id: e.requestId })}\n`,
        );
      else {
        // The §1.4 body repeats its code as its message: say instead what to do next.
        const message = e.message && e.message !== e.code ? e.message : "";
        out.err(`oabp: ${e.code}${e.reason ? ` (${e.reason})` : ""}${message ? `: ${message}` : ""}\n`);
        const hint = nextStep(command, e.code, parsed.values, io.env);
        if (hint) out.err(`  ${hint}\n`);
      }
      return exitCodeFor(e);
    }
    out.err(`oabp: ${(e as Error).message}\n`);
    return EXIT.failed;
  }
}
