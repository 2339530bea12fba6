import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { accessSync, chmodSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "./cli";

/** The pgbouncer binary: on PATH or where Debian installs it (/usr/sbin, often not on a user's PATH). */
export function pgbouncerBinary(): string | null {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), "/usr/sbin", "/usr/local/sbin"];
  for (const d of dirs) {
    const p = path.join(d, "pgbouncer");
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

/** [major, minor] of `pgbouncer --version` ("PgBouncer 1.18.0"). */
export function pgbouncerVersion(bin: string): [number, number] {
  const m = /PgBouncer (\d+)\.(\d+)/.exec(execFileSync(bin, ["--version"], { encoding: "utf8" }));
  if (!m) throw new Error("cannot read the pgbouncer version");
  return [Number(m[1]), Number(m[2])];
}

export interface Pooler {
  /** postgres:// URL of the database through the pooler. */
  url: string;
  version: [number, number];
  stop(): Promise<void>;
}

/**
 * Starts a transaction-mode PgBouncer in front of `target` (a postgres:// URL with trust auth),
 * on a free loopback port. PgBouncer refuses to run as root, so as root it drops to `postgres`.
 */
export async function startPgbouncer(bin: string, target: string, opts: { poolSize?: number } = {}): Promise<Pooler> {
  const version = pgbouncerVersion(bin);
  const t = new URL(target);
  const dbName = t.pathname.slice(1);
  const user = decodeURIComponent(t.username || "postgres");
  const dir = mkdtempSync(path.join(tmpdir(), "oabp-pgbouncer-"));
  chmodSync(dir, 0o755); // readable by the `postgres` user it runs as
  const port = await freePort();
  const lines = [
    "[databases]",
    `${dbName} = host=${t.hostname} port=${t.port || 5432} dbname=${dbName} user=${user}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    `unix_socket_dir = ${dir}`,
    "pool_mode = transaction",
    "auth_type = trust",
    `auth_file = ${path.join(dir, "userlist.txt")}`,
    `default_pool_size = ${opts.poolSize ?? 5}`,
    "max_client_conn = 200",
    // postgres.js sends no such parameters today; ignoring them is the usual pooler setting.
    "ignore_startup_parameters = extra_float_digits,options",
    // PgBouncer ≥ 1.21 tracks protocol-level prepared statements itself.
    ...(version[0] > 1 || version[1] >= 21 ? ["max_prepared_statements = 100"] : []),
  ];
  writeFileSync(path.join(dir, "pgbouncer.ini"), `${lines.join("\n")}\n`, { mode: 0o644 });
  writeFileSync(path.join(dir, "userlist.txt"), `"${user}" ""\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(bin, [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  const u = new URL(target);
  u.hostname = "127.0.0.1";
  u.port = String(port);
  const url = u.toString();
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready once a query goes through (bounded: 100 tries).
  for (let i = 0; ; i++) {
    const probe = postgres(url, { max: 1, prepare: false, connect_timeout: 2, onnotice: () => {} });
    try {
      await probe`select 1`;
      await probe.end();
      return { url, version, stop };
    } catch (e) {
      await probe.end({ timeout: 1 }).catch(() => {});
      if (i >= 100 || child.exitCode !== null) {
        await stop();
        throw new Error(`pgbouncer did not start: ${(e as Error).message}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
