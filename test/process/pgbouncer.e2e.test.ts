import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/db/client";
import { parseEnv } from "../../src/env";
import { onRealPostgres } from "../helpers/db";
import { pgbouncerBinary, startPgbouncer } from "../helpers/pgbouncer";
import { E2E_ADMIN, startServer, type ServerProcess, httpCall, httpSignIn } from "../helpers/process";
import {
  eventually,
  freshDatabase,
  httpCredit,
  processMission,
  stopProcess,
  tempDir,
  useCleanups,
} from "../helpers/process-suite";

// The server behind a transaction-mode pooler (Debian's PgBouncer; .ci/run
// installs it). Queries go through PgBouncer (DATABASE_URL); migrations and LISTEN use the direct
// URL (DATABASE_DIRECT_URL). Every read/write flow runs over HTTP against the real process, and
// the ledger stays exact under concurrent creations — transaction pooling hands each transaction
// a different server connection, so any session state the code relied on would show here.
describe("pooler settings (env.ts)", () => {
  const pooled = "postgres://app@pooler.internal:6432/oabp";
  const direct = "postgres://app@db.internal:5432/oabp";
  it("named prepared statements and pipelining are off only behind a pooler", () => {
    expect(parseEnv({ DATABASE_URL: direct })).toMatchObject({ databasePrepare: true, databasePipeline: true });
    expect(parseEnv({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct })).toMatchObject({
      databaseUrl: pooled,
      databaseDirectUrl: direct,
      databasePrepare: false,
      databasePipeline: false,
    });
  });
  it("refuses a direct URL without the pooled one", () => {
    expect(() => parseEnv({ DATABASE_DIRECT_URL: direct })).toThrow(
      /DATABASE_DIRECT_URL: set only together with DATABASE_URL/,
    );
  });
});

const bin = pgbouncerBinary();
describe.runIf(onRealPostgres && bin)("behind PgBouncer (pool_mode=transaction)", () => {
  const cleanups = useCleanups();
  const call = httpCall;
  const signIn = httpSignIn;
  const mission = (title: string) =>
    processMission({ title, description: "Posted through PgBouncer.", amount: "100000000", tags: ["pooled"] });
  // 100 USDC reward + the 5 USDC spam fee (env.ts DEFAULT_ASSETS).
  const COST = 105_000_000n;

  // PgBouncer < 1.21 returns its server connection at a query's ReadyForQuery even when the
  // client has pipelined a Parse/Describe/Flush behind it, and that reply is lost
  // (src/db/unpipelined.ts). With postgres.js's default pipelining this burst leaves queries
  // unanswered for ever (198 of 200 workers finished when it was written); the pool the server
  // opens behind a pooler (DATABASE_DIRECT_URL set) does not pipeline, and every worker finishes.
  it(
    "the pooled query pool never pipelines: a burst of mixed queries and transactions all finish",
    { timeout: 120_000 },
    async () => {
      const db = await freshDatabase(cleanups, "oabp_pgb_burst");
      const pooler = await startPgbouncer(bin!, db.url, { poolSize: 5 });
      cleanups.push(() => pooler.stop());
      const env = parseEnv({ DATABASE_URL: pooler.url, DATABASE_DIRECT_URL: db.url });
      const database = await openDatabase({
        url: env.databaseUrl,
        directUrl: env.databaseDirectUrl,
        prepare: env.databasePrepare,
        pipeline: env.databasePipeline,
        poolMax: 4,
        migrate: false,
      });
      cleanups.push(() => database.close());
      let finished = 0;
      const worker = async (i: number) => {
        await database.db.execute(sql`select pg_current_wal_insert_lsn()::text as lsn`);
        await database.db.execute(sql`select ${i}::int as i`);
        if (i % 4 === 0)
          await database.db.transaction(async (tx) => {
            await tx.execute(sql`select ${i}::int as i`);
            await tx.transaction(async (inner) => inner.execute(sql`select ${i + 1}::int as i`));
          });
        finished++;
      };
      const all = Promise.all(Array.from({ length: 200 }, (_, i) => worker(i))).then(() => "done");
      let timer: NodeJS.Timeout | undefined;
      // A hang detector, not a timing assertion: the burst takes well under a second when it works.
      const hung = new Promise<string>((r) => (timer = setTimeout(() => r("hung"), 60_000)));
      const outcome = await Promise.race([all, hung]);
      clearTimeout(timer);
      expect({ outcome, finished }).toEqual({ outcome: "done", finished: 200 });
    },
  );

  it("serves the read/write flows and keeps the ledger exact under concurrency", { timeout: 180_000 }, async () => {
    const db = await freshDatabase(cleanups, "oabp_pgb");
    const pooler = await startPgbouncer(bin!, db.url, { poolSize: 5 });
    cleanups.push(() => pooler.stop());
    const dir = tempDir(cleanups, "oabp-pgb");
    const s: ServerProcess = await startServer({
      DATABASE_URL: pooler.url,
      DATABASE_DIRECT_URL: db.url,
      DATABASE_POOL_MAX: "10",
      OABP_DATA_DIR: dir,
      // The award pays at once (no appeal window), so the receipt exists right after it.
      OABP_APPEAL_DEFAULT: "off",
    });
    cleanups.push(() => stopProcess(s));

    const creator = await signIn(s.base);
    const solver = await signIn(s.base);
    // Admin credit under an Idempotency-Key (its transaction uses SET LOCAL lock_timeout): the replay is served, not re-applied.
    const credit = { agent_id: creator.address, asset: "USDC", amount: String(COST) };
    const c1 = await call(s.base, "POST", "/admin/ledger/credit", credit, E2E_ADMIN, {
      "idempotency-key": "pgb-credit",
    });
    expect(c1.status, c1.text).toBe(200);
    const c2 = await call(s.base, "POST", "/admin/ledger/credit", credit, E2E_ADMIN, {
      "idempotency-key": "pgb-credit",
    });
    expect(c2.text).toBe(c1.text);

    // Warm the list cache, write, read again: the write moved the missions epoch, so the cached page is not served.
    expect((await call(s.base, "GET", "/missions?tag=pooled")).body.missions).toEqual([]);
    const m = await call(s.base, "POST", "/missions", mission("Pooled"), creator.token);
    expect(m.status, m.text).toBe(201);
    const listed = await eventually(
      () => call(s.base, "GET", "/missions?tag=pooled"),
      (r) => r.body.missions.length === 1,
    );
    expect(listed.body.missions.map((x: { id: string }) => x.id)).toEqual([m.body.id]);
    expect((await call(s.base, "GET", `/agents/${creator.address}`)).body.aigen_balance).toBe(0);

    const sub = await call(
      s.base,
      "POST",
      `/missions/${m.body.id}/submissions`,
      { content: "An answer through the pooler." },
      solver.token,
    );
    expect(sub.status, sub.text).toBe(201);
    const award = await call(
      s.base,
      "POST",
      `/missions/${m.body.id}/award`,
      { winners: [{ submission_id: sub.body.id }] },
      creator.token,
    );
    expect(award.status, award.text).toBe(200);
    const receipt = await call(s.base, "GET", `/missions/${m.body.id}/receipts/${sub.body.id}`);
    expect(receipt.status, receipt.text).toBe(200);
    const verified = await call(s.base, "POST", "/receipts/verify", { receipt: receipt.body });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.valid).toBe(true);
    const solverBalance = (await call(s.base, "GET", `/agents/${solver.address}`)).body.aigen_balance;
    expect(solverBalance).toBeGreaterThan(0);
    const board = await call(s.base, "GET", "/leaderboard");
    expect(board.status, board.text).toBe(200);
    expect(board.body.agents.map((a: { agent_id: string }) => a.agent_id)).toContain(solver.address);

    // 20 concurrent creations against a balance covering exactly 5.
    const racer = await signIn(s.base);
    await httpCredit(s.base, racer.address, 5n * COST);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(s.base, "POST", "/missions", mission(`Race ${i}`), racer.token)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(5);
    expect(
      statuses.filter((x) => x !== 201 && x !== 409),
      results
        .filter((r) => r.status !== 201 && r.status !== 409)
        .map((r) => r.text)
        .join("\n"),
    ).toEqual([]);
    expect((await call(s.base, "GET", `/agents/${racer.address}`)).body.aigen_balance).toBe(0);
    const mine = await eventually(
      () => call(s.base, "GET", "/missions?tag=pooled&limit=50"),
      (r) => r.body.missions.length === 6,
    );
    expect(mine.body.missions).toHaveLength(6);
  });
});
