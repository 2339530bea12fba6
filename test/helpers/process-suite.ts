import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, expect } from "vitest";
import { BUILT_ENTRY, E2E_ADMIN, freshPostgresDatabase, httpCall, ROOT, startServer } from "./process";

/** What a process test started (servers, databases, directories), undone after its describe block. */
export type Cleanups = (() => unknown)[];

/**
 * The cleanups of one describe block, run after all its tests, last registered first. A failing
 * step does not stop the rest: one stuck child must not leave the databases behind.
 */
export function useCleanups(): Cleanups {
  const cleanups: Cleanups = [];
  afterAll(async () => {
    for (const c of cleanups.reverse())
      await Promise.resolve()
        .then(c)
        .catch(() => {});
  });
  return cleanups;
}

/** A spawned child: a server (helpers/process.ts) or a settlement worker. */
interface Spawned {
  child: ChildProcess;
  exited: Promise<number | null>;
}

const alive = (p: Spawned) => p.child.exitCode === null && p.child.signalCode === null;

/** Graceful stop (SIGTERM); a child that already ended is only awaited. */
export async function stopProcess(p: Spawned): Promise<void> {
  if (alive(p)) p.child.kill("SIGTERM");
  await p.exited;
}

/** A crash (SIGKILL); a child that already ended is only awaited. */
export async function killProcess(p: Spawned): Promise<void> {
  if (alive(p)) p.child.kill("SIGKILL");
  await p.exited;
}

/** A fresh Postgres database (helpers/process.ts), dropped with the cleanups. */
export async function freshDatabase(cleanups: Cleanups, prefix: string) {
  const db = await freshPostgresDatabase(prefix);
  cleanups.push(() => db.drop());
  return db;
}

/** A temporary directory, removed with the cleanups: last, after the processes that use it stopped. */
export function tempDir(cleanups: Cleanups, prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  cleanups.unshift(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Two server processes on one fresh database, as a fleet runs behind a load balancer: each with
 * its own data directory, both stopped with the cleanups.
 */
export async function startPair(cleanups: Cleanups, prefix: string, env: Record<string, string> = {}) {
  const db = await freshDatabase(cleanups, prefix);
  // Each is stopped with the cleanups as soon as it runs, also when the other fails to start.
  const start = async () => {
    const s = await startServer({ DATABASE_URL: db.url, OABP_DATA_DIR: tempDir(cleanups, prefix), ...env });
    cleanups.push(() => stopProcess(s));
    return s;
  };
  const [a, b] = await Promise.all([start(), start()]);
  return { db, a, b };
}

/** Credits an agent with USDC base units through a spawned server's admin API; the credit must succeed. */
export async function httpCredit(base: string, agentId: string, amount: string | bigint) {
  const r = await httpCall(
    base,
    "POST",
    "/admin/ledger/credit",
    { agent_id: agentId, asset: "USDC", amount: String(amount) },
    E2E_ADMIN,
  );
  expect(r.status, r.text).toBe(200);
  return r;
}

/** A creator-judged USDC mission due in a week (base units), as the process tests post it. */
export function processMission(o: { title: string; description: string; amount: string; tags?: string[] }) {
  return {
    title: o.title,
    description: o.description,
    reward: { asset: "USDC", amount: o.amount },
    verification: { type: "creator_judges", params: {} },
    deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    ...(o.tags && { tags: o.tags }),
  };
}

/**
 * Polls `f` every 50 ms until `ok` holds (at most 100 times) and returns the last value: for what
 * another process learns asynchronously (a NOTIFY); the caller asserts on the value.
 */
export async function eventually<T>(f: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await f();
  for (let i = 0; i < 100 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 50));
    v = await f();
  }
  return v;
}

/**
 * A wait on what a worker writes: `until(what, ok, step?)` polls `ok` every 200 ms, running
 * `step` (mine a block) in between, and after `limitMs` fails with the `row` it waited on.
 */
export function untilRow(row: () => Promise<unknown>, limitMs: number) {
  return async (what: string, ok: () => Promise<boolean>, step?: () => Promise<void>) => {
    const limit = Date.now() + limitMs;
    while (!(await ok())) {
      if (Date.now() > limit) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await row())}`);
      await step?.();
      await new Promise((res) => setTimeout(res, 200));
    }
  };
}

/** The settlement worker as its own process, as `npm run worker` runs it (the build); resolves once it runs. */
export function startWorker(env: Record<string, string>): Promise<Spawned> {
  const child = spawn(process.execPath, BUILT_ENTRY("worker"), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "info", OABP_WORKER_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    void exited.then((code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes("settlement worker running")) resolve({ child, exited });
    });
  });
}
