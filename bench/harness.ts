import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";

// What bench/run.ts (read path) and bench/scale.ts (scale mode) share: bounded waits, child
// processes that never outlive the run, the bench-only database guard, machine facts.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Small helpers

export const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

export async function getJson(url: string, timeoutMs = 5000): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body };
}

// ---------------------------------------------------------------------------------------------
// Database: drop + recreate the bench database, migrate, seed

/** The rows of a drizzle `execute` result: an array or `{ rows }`, as the driver gives them. */
export const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows);

export function dbName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
}

export async function recreateDatabase(url: string): Promise<void> {
  const name = dbName(url);
  // This database is dropped on every run: refuse anything that does not look like a bench db.
  if (!/bench/i.test(name)) {
    throw new Error(
      `refusing to drop database ${JSON.stringify(name)}: BENCH_DATABASE_URL must name a database whose name contains "bench"`,
    );
  }
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const pg = postgres(admin.toString(), { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await withTimeout(pg`drop database if exists ${pg(name)} with (force)`, 30_000, `drop database ${name}`);
    await withTimeout(pg`create database ${pg(name)}`, 30_000, `create database ${name}`);
  } finally {
    await pg.end({ timeout: 5 });
  }
}

// ---------------------------------------------------------------------------------------------
// Child processes

export interface Child {
  name: string;
  proc: ChildProcess;
  tail: string[];
  exitCode: number | null | undefined; // undefined while running
  exited: Promise<void>;
}

export const children: Child[] = [];
/** The autocannon instance currently firing, stopped first on SIGINT. */
export const load: { running?: { stop(): void } | undefined } = {};

/** A node child; `cwd` is the checkout whose sources it runs (bench/ab.ts: another commit's). */
export function startChild(name: string, args: string[], env: Record<string, string>, cwd = ROOT): Child {
  const proc = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const child: Child = { name, proc, tail: [], exitCode: undefined, exited: Promise.resolve() };
  child.exited = new Promise((resolve) => {
    proc.on("exit", (code, signal) => {
      child.exitCode = code ?? (signal ? -1 : null);
      resolve();
    });
    proc.on("error", (e) => {
      child.tail.push(`spawn error: ${e.message}`);
      child.exitCode = -1;
      resolve();
    });
  });
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      child.tail.push(line);
      if (child.tail.length > 40) child.tail.shift();
      process.stderr.write(`[${name}] ${line}\n`);
    }
  };
  proc.stdout?.on("data", onData);
  proc.stderr?.on("data", onData);
  children.push(child);
  return child;
}

export async function stopChild(child: Child, graceMs = 8000): Promise<void> {
  if (child.exitCode !== undefined) return;
  child.proc.kill("SIGTERM");
  try {
    await withTimeout(child.exited, graceMs, `${child.name} to exit`);
  } catch {
    log(`${child.name} did not exit after SIGTERM; sending SIGKILL`);
    child.proc.kill("SIGKILL");
    await withTimeout(child.exited, 3000, `${child.name} to die`).catch(() => {});
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all(children.map((c) => stopChild(c)));
}

// Last resort: whatever happens, no child outlives this process.
process.on("exit", () => {
  for (const c of children) if (c.exitCode === undefined) c.proc.kill("SIGKILL");
});
let interrupted = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`${sig}: stopping the load and the child processes`);
    load.running?.stop();
    void stopAll().finally(() => process.exit(130));
  });
}

export async function waitReady(child: Child, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (child.exitCode !== undefined) {
      throw new Error(
        `${child.name} exited with code ${child.exitCode} before becoming ready:\n${child.tail.join("\n")}`,
      );
    }
    try {
      const r = await getJson(url, 2000);
      if (r.status === 200) return;
      last = `HTTP ${r.status} ${JSON.stringify(r.body)}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await sleep(200);
  }
  throw new Error(`${child.name} not ready after ${timeoutMs} ms (${url}: ${last})`);
}

export function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (m) return m[1]!.trim();
  } catch {
    /* not linux */
  }
  return os.cpus()[0]?.model ?? "?";
}

/** Whole-machine CPU busy % over `ms` (from /proc/stat), or "?" where that is not available. */
export async function machineBusy(ms: number): Promise<string> {
  const sample = () => {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    return { idle, total: f.slice(0, 8).reduce((a, b) => a + b, 0) };
  };
  try {
    const a = sample();
    await sleep(ms);
    const b = sample();
    const total = b.total - a.total;
    return total > 0 ? `${Math.round((100 * (total - (b.idle - a.idle))) / total)}%` : "?";
  } catch {
    return "?";
  }
}

/** CPU time (user + system, ms) of one process from /proc, or undefined off Linux. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * CPU time (ms) of every local `postgres` process (the server and its backends), or undefined
 * where there is none to read: what the database spent, when it runs on this machine.
 */
export function postgresCpuMs(): number | undefined {
  try {
    let total = 0;
    let seen = 0;
    for (const d of readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      let comm: string;
      try {
        comm = readFileSync(`/proc/${d}/comm`, "utf8").trim();
      } catch {
        continue; // gone meanwhile
      }
      if (comm !== "postgres") continue;
      const ms = processCpuMs(Number(d));
      if (ms === undefined) continue;
      total += ms;
      seen++;
    }
    return seen > 0 ? total : undefined;
  } catch {
    return undefined;
  }
}
