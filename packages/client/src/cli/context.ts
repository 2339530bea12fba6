import { readFileSync } from "node:fs";
import path from "node:path";
import type { LocalAccount } from "viem";
import type { KeySource } from "../account.js";
import { OabpClient } from "../client.js";
import { EXIT, OabpError } from "../errors.js";
import { Config } from "./config.js";
import type { Out } from "./output.js";

// What every command gets: flags, output, the profile's config, and a client for the server.

/** Environment variables the CLI reads (docs are checked against this list). */
export const CLI_ENV = [
  "OABP_URL",
  "OABP_PROFILE",
  "OABP_CONFIG_DIR",
  "XDG_CONFIG_HOME",
  "OABP_PRIVATE_KEY",
  "OABP_KEY_FILE",
  "OABP_KEYSTORE",
  "OABP_KEYSTORE_PASSWORD",
  "OABP_KEYSTORE_PASSWORD_FILE",
  "OABP_ADMIN_TOKEN",
  "OABP_RPC_URL",
];

export type Flags = Record<string, string | boolean | string[] | undefined>;

export class UsageError extends Error {}

export interface Ctx {
  args: string[];
  flags: Flags;
  out: Out;
  env: NodeJS.ProcessEnv;
  config: Config;
  profile: string;
  server: string;
  client: OabpClient;
  stdin: NodeJS.ReadableStream;
}

export const str = (f: Flags, k: string): string | undefined =>
  typeof f[k] === "string" ? (f[k] as string) : undefined;

/** Where the signing key comes from: flags, then environment, then what `oabp login` remembered. */
function keySource(flags: Flags, env: NodeJS.ProcessEnv, config: Config, profile: string): KeySource | undefined {
  const password = () => {
    const file = str(flags, "password-file") ?? env.OABP_KEYSTORE_PASSWORD_FILE;
    const pw = file ? readFileSync(file, "utf8").replace(/\r?\n$/, "") : env.OABP_KEYSTORE_PASSWORD;
    if (pw === undefined)
      throw new UsageError("the keystore needs its password: --password-file <file> or OABP_KEYSTORE_PASSWORD");
    return pw;
  };
  const keyFile = str(flags, "key-file");
  const keystore = str(flags, "keystore");
  if (keyFile) return { type: "key_file", path: path.resolve(keyFile) };
  if (keystore) return { type: "keystore", path: path.resolve(keystore), password: password() };
  if (env.OABP_PRIVATE_KEY) return { type: "private_key", privateKey: env.OABP_PRIVATE_KEY };
  if (env.OABP_KEY_FILE) return { type: "key_file", path: path.resolve(env.OABP_KEY_FILE) };
  if (env.OABP_KEYSTORE) return { type: "keystore", path: path.resolve(env.OABP_KEYSTORE), password: password() };
  const saved = config.profile(profile).key;
  if (saved?.type === "key_file") return { type: "key_file", path: saved.path };
  if (saved?.type === "keystore") return { type: "keystore", path: saved.path, password: password() };
  return undefined;
}

export function makeContext(
  argv: { args: string[]; flags: Flags },
  out: Out,
  env: NodeJS.ProcessEnv,
  stdin: NodeJS.ReadableStream,
): Ctx {
  const config = new Config(env);
  const profile = str(argv.flags, "profile") ?? env.OABP_PROFILE ?? "default";
  const server = (
    str(argv.flags, "server") ??
    env.OABP_URL ??
    config.profile(profile).server ??
    "http://localhost:3000"
  ).replace(/\/+$/, "");
  try {
    new URL(server);
  } catch {
    throw new UsageError(`--server / OABP_URL must be a URL, got ${server}`);
  }
  // The key source is resolved lazily: read commands need none, and a keystore is decrypted only to sign in.
  let account: (() => Promise<LocalAccount>) | undefined;
  const hasKey = () => {
    try {
      return keySource(argv.flags, env, config, profile) !== undefined;
    } catch {
      return true; // a keystore without its password: report that when signing is needed
    }
  };
  // account.js (viem) is loaded only to sign: `--help` and reads stay fast (bench/README.md "CLI").
  if (hasKey())
    account = async () => (await import("../account.js")).loadAccount(keySource(argv.flags, env, config, profile)!);
  const client = new OabpClient({
    baseUrl: server,
    account,
    tokenStore: config.tokenStore(profile, server),
    adminToken: str(argv.flags, "admin-token") ?? env.OABP_ADMIN_TOKEN,
    timeoutMs: Number(str(argv.flags, "timeout") ?? 30) * 1000,
  });
  return { ...argv, out, env, config, profile, server, client, stdin };
}

export async function readInput(ctx: Ctx, file: string | undefined): Promise<Buffer> {
  if (file && file !== "-") return readFileSync(file);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.stdin) {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(c as string);
    size += b.length;
    if (size > 64 * 1024 * 1024) throw new UsageError("stdin: more than 64 MiB");
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

export const need = (v: string | undefined, what: string): string => {
  if (!v) throw new UsageError(`missing ${what}`);
  return v;
};

export const notSignedIn = () =>
  new OabpError(
    401,
    "UNAUTHORIZED",
    "not signed in: run `oabp login` (or set OABP_PRIVATE_KEY / --key-file / --keystore)",
  );
export { EXIT };
