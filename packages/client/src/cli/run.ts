import { parseArgs } from "node:util";
import { exitCodeFor, OabpError } from "../errors.js";
import { admin, agent, balance, keygen, login, logout, mcp, receipt, webhooks } from "./account.js";
import { EXIT, makeContext, UsageError, type Ctx } from "./context.js";
import { award, claim, commit, fund, LIST_QUERY_FLAGS, missions, submit, vote, watch } from "./missions.js";
import type { Out } from "./output.js";
import { topUp } from "./top-up.js";

// `oabp`: the command line over @oabp/client (entry: main.ts). Exit codes: 0 ok, 1 failed (invalid receipt, voided
// mission), 2 usage, 3 not signed in / forbidden, 4 not found, 5 conflict, 6 rejected input,
// 7 server or network unavailable, 8 timed out.

export const USAGE = `usage: oabp <command> [options]

  keygen <file> [--keystore-out --password-file F]  new private key in a 0600 file (or an encrypted keystore); prints the address
  login                         sign in with SIWE (--key-file | --keystore [--password-file] | OABP_PRIVATE_KEY)
  logout
  missions list [--status --tag --q --creator --limit --cursor --all]
  missions get <id> | void <id> | submissions <id>
  missions create --title T --reward <base units> [--asset USDC] [--chain base] [--verification creator_judges]
                  [--params JSON] [--deadline +3d|ISO] [--tags a,b] [--description D] | --file body.json
  claim <mission> [--release]
  submit <mission> [file|-] [--uri URI] [--salt S]       inline content, or --uri with its hash computed
  commit <mission> [file|-] --salt S                     commit-reveal: the commitment of your content
  reveal <mission> [file|-] --salt S [--uri URI]
  award <mission> <submission>[:share_bps] …            base rail: signs the releases of your deposit
  vote <mission> <submission> <stake>
  balance [agent] | agent [agent]
  receipt get <mission> <submission> [--out file]
  receipt verify <file|URL|-|mission submission> [--manifest file|URL] [--remote]
  watch <mission> | watch [--q --tag --status …] [--max N]   [--interval s] [--max-polls n]
  fund <mission> [--rpc-url URL] [--permit|--approve]    base rail: permit (or approve) + fundUntil, wait until open
  topup <mission> <amount> [--rpc-url URL] [--permit|--approve]    add to the reward; base rail: funds its slot
  webhooks add <url> --events a,b [--filters JSON] | list | rm <id>
  admin credit <agent> <amount> [--asset USDC]           operator (OABP_ADMIN_TOKEN)
  mcp                                                    stdio MCP server bridged to <server>/mcp

global: --server URL (OABP_URL) --profile NAME (OABP_PROFILE) --json --timeout s --admin-token T
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
  "limit",
  "max",
  "file",
  "title",
  "description",
  "reward",
  "chain",
  "verification",
  "params",
  "deadline",
  "tags",
  "idempotency-key",
  "uri",
  "hash",
  "salt",
  "out",
  "manifest",
  "interval",
  "max-polls",
  "rpc-url",
  "events",
  "filters",
];
export const BOOL_FLAGS = ["json", "all", "release", "remote", "help", "keystore-out", "permit", "approve"];

/** Commands and their subcommands (docs are checked against this list). */
export const SUBCOMMANDS: Record<string, string[]> = {
  missions: ["list", "get", "create", "void", "submissions"],
  receipt: ["get", "verify"],
  webhooks: ["add", "list", "rm"],
  admin: ["credit"],
};

export const COMMANDS: Record<string, (ctx: Ctx) => Promise<number>> = {
  keygen,
  login,
  logout,
  missions,
  claim,
  submit,
  reveal: (c) => submit(c, true),
  commit,
  award,
  vote,
  balance,
  agent,
  receipt,
  watch,
  fund,
  topup: topUp,
  webhooks,
  admin,
  mcp,
};

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
      else out.err(`oabp: ${e.code}${e.reason ? ` (${e.reason})` : ""}: ${e.message}\n`);
      return exitCodeFor(e);
    }
    out.err(`oabp: ${(e as Error).message}\n`);
    return EXIT.failed;
  }
}
