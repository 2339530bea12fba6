import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { freshPostgresDatabase, startServer } from "../helpers/process";

// Graceful shutdown that drains jobs, with a real process on real Postgres. A job
// round is held in flight deterministically: the test locks `auth_nonces`, so the
// purge_expired_auth job blocks on its DELETE (seen waiting in pg_stat_activity) before SIGTERM.
// Skipped on PGlite: the lock comes from a second connection, which PGlite cannot have.
describe.runIf(onRealPostgres)("graceful shutdown drains the job round in flight", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  async function boot(timeoutMs: number) {
    const db = await freshPostgresDatabase("oabp_shutdown");
    cleanups.push(() => db.drop());
    const dir = mkdtempSync(path.join(tmpdir(), "oabp-shutdown-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const srv = await startServer({
      DATABASE_URL: db.url,
      OABP_DATA_DIR: dir,
      OABP_JOB_INTERVAL_MS: "100",
      OABP_SHUTDOWN_TIMEOUT_MS: String(timeoutMs),
    });
    cleanups.push(async () => {
      if (srv.child.exitCode === null && srv.child.signalCode === null) srv.child.kill("SIGKILL");
    });
    const logs: string[] = [];
    srv.child.stdout!.on("data", (d: Buffer) => logs.push(...d.toString().split("\n").filter(Boolean)));
    const sql = postgres(db.url, { max: 2, onnotice: () => {}, connection: { application_name: "oabp-test" } });
    cleanups.push(() => sql.end());
    const name = new URL(db.url).pathname.slice(1);
    return { srv, sql, name, logs };
  }

  /** Locks auth_nonces with an expired nonce in it; resolves once the server's purge waits on the lock. */
  async function holdPurge(sql: postgres.Sql, name: string) {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const tx = sql.begin(async (t) => {
      await t`lock table auth_nonces in access exclusive mode`;
      await t`insert into auth_nonces (nonce, issued_at, expires_at)
              values ('expired-nonce', now() - interval '3 hours', now() - interval '2 hours')`;
      locked();
      await released;
    });
    await isLocked;
    let waiting = 0;
    for (let i = 0; i < 400 && waiting === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const [row] = await sql`select count(*)::int as n from pg_stat_activity
        where datname = ${name} and wait_event_type = 'Lock' and query ilike '%auth_nonces%'`;
      waiting = row!.n;
    }
    expect(waiting, "the purge job is in flight, waiting on the lock").toBe(1);
    return { release, tx };
  }

  /** The server's sessions left on its database (a closed socket ends its backend within moments). */
  const otherBackends = async (sql: postgres.Sql, name: string) => {
    let n = -1;
    for (let i = 0; i < 40 && n !== 0; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      n = (
        await sql`select count(*)::int as n from pg_stat_activity
          where datname = ${name} and application_name <> 'oabp-test' and backend_type = 'client backend'`
      )[0]!.n;
    }
    return n;
  };

  it("SIGTERM: stops accepting, the job in flight finishes, pools close, exit 0", { timeout: 180_000 }, async () => {
    const { srv, sql, name, logs } = await boot(30_000);
    const { release, tx } = await holdPurge(sql, name);
    srv.child.kill("SIGTERM");
    // SIGTERM's first step closes the listener: poll, each time on a NEW connection (a kept-alive
    // socket would still be served while the server drains), until one is refused (bounded).
    const refused = () =>
      new Promise<boolean>((resolve) => {
        const req = http.get(`${srv.base}/health`, { agent: false }, (res) => {
          res.resume();
          resolve(false);
        });
        req.on("error", () => resolve(true));
      });
    let accepting = true;
    for (let i = 0; i < 2000 && accepting; i++) {
      accepting = !(await refused());
      if (accepting) await new Promise((r) => setTimeout(r, 25));
    }
    // No longer accepting connections, but still draining (the job waits on the lock).
    expect(accepting).toBe(false);
    expect(srv.child.exitCode).toBeNull();
    release();
    await tx;
    expect(await srv.exited).toBe(0);
    // The round in flight ran to its end: it deleted the expired nonce it was blocked on.
    expect((await sql`select count(*)::int as n from auth_nonces where nonce = 'expired-nonce'`)[0]!.n).toBe(0);
    // Nothing left behind: no session of the server, no lock, no claimed work.
    expect(await otherBackends(sql, name)).toBe(0);
    expect(logs.some((l) => l.includes("requests and job rounds drained"))).toBe(true);
  });

  it(
    "a job round longer than OABP_SHUTDOWN_TIMEOUT_MS is cut off: exit 1, its transaction rolled back",
    { timeout: 180_000 },
    async () => {
      const { srv, sql, name, logs } = await boot(1000);
      const { release, tx } = await holdPurge(sql, name);
      srv.child.kill("SIGTERM");
      const code = await srv.exited; // while the lock is still held
      expect(code).toBe(1);
      expect(logs.some((l) => l.includes("shutdown timeout"))).toBe(true);
      release();
      await tx;
      // The cut-off DELETE never happened, and the server's connections are gone.
      expect((await sql`select count(*)::int as n from auth_nonces where nonce = 'expired-nonce'`)[0]!.n).toBe(1);
      expect(await otherBackends(sql, name)).toBe(0);
    },
  );
});
