import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import {
  E2E_ADMIN,
  freshPostgresDatabase,
  startServer,
  type ServerProcess,
  httpCall,
  httpSignIn,
} from "../helpers/process";

// Operations: the documented backup / restore procedure (docs/operations.md,
// "Backup and restore"), run once end to end. Value moves on a real server; the database is
// dumped with pg_dump -Fc while it runs, restored with pg_restore into a NEW database; a server
// started on the copy answers the same data and its ledger verifies (hash chain and balances).
const run = promisify(execFile);

describe.runIf(onRealPostgres)("backup and restore (pg_dump / pg_restore)", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });
  const stop = async (p: ServerProcess) => {
    p.child.kill("SIGTERM");
    await p.exited;
  };
  const call = httpCall;
  const signIn = httpSignIn;

  it(
    "dump a live database, restore into a new one, start a server on it: same data, ledger verifies",
    { timeout: 120_000 },
    async () => {
      const source = await freshPostgresDatabase("oabp_backup_src");
      cleanups.push(() => source.drop());
      const dir = mkdtempSync(path.join(tmpdir(), "oabp-backup-"));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const a = await startServer({ DATABASE_URL: source.url, OABP_DATA_DIR: path.join(dir, "a") });
      cleanups.push(() => stop(a));

      const creator = await signIn(a.base);
      const solver = await signIn(a.base);
      expect(
        (
          await call(
            a.base,
            "POST",
            "/admin/ledger/credit",
            { agent_id: creator.address, asset: "USDC", amount: "500000000" },
            E2E_ADMIN,
          )
        ).status,
      ).toBe(200);
      const mission = (
        await call(
          a.base,
          "POST",
          "/missions",
          {
            title: "Backed up",
            description: "A mission whose award must survive a restore.",
            reward: { asset: "USDC", amount: "100000000" },
            verification: { type: "creator_judges", params: {} },
            deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
            tags: ["backup"],
          },
          creator.token,
        )
      ).body;
      const sub = await call(
        a.base,
        "POST",
        `/missions/${mission.id}/submissions`,
        { content: "the answer" },
        solver.token,
      );
      expect(sub.status, sub.text).toBe(201);
      const award = await call(
        a.base,
        "POST",
        `/missions/${mission.id}/award`,
        { winners: [{ submission_id: sub.body.submission_id }] },
        creator.token,
      );
      expect(award.status, award.text).toBe(200);
      const before = {
        mission: (await call(a.base, "GET", `/missions/${mission.id}`)).body,
        solver: (await call(a.base, "GET", `/agents/${solver.address}/balance`)).body,
        creator: (await call(a.base, "GET", `/agents/${creator.address}/balance`)).body,
        verify: (await call(a.base, "GET", "/admin/ledger/verify", undefined, E2E_ADMIN)).body,
      };
      expect(before.verify.ok).toBe(true);

      // The procedure: a consistent snapshot while the server runs, custom format.
      const file = path.join(dir, "oabp.dump");
      await run("pg_dump", ["--format=custom", "--no-owner", "--file", file, source.url]);
      expect(statSync(file).size).toBeGreaterThan(0);
      await stop(a);
      const target = await freshPostgresDatabase("oabp_backup_dst");
      cleanups.push(() => target.drop());
      await run("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", target.url, file]);

      const b = await startServer({ DATABASE_URL: target.url, OABP_DATA_DIR: path.join(dir, "b") });
      cleanups.push(() => stop(b));
      expect((await call(b.base, "GET", "/ready")).status).toBe(200);
      const after = {
        mission: (await call(b.base, "GET", `/missions/${mission.id}`)).body,
        solver: (await call(b.base, "GET", `/agents/${solver.address}/balance`)).body,
        creator: (await call(b.base, "GET", `/agents/${creator.address}/balance`)).body,
        verify: (await call(b.base, "GET", "/admin/ledger/verify", undefined, E2E_ADMIN)).body,
      };
      expect(after).toEqual(before);
      expect(after.mission.status).not.toBe("open");
      // The restored copy is a working server: it takes new writes.
      expect(
        (
          await call(
            b.base,
            "POST",
            "/admin/ledger/credit",
            { agent_id: solver.address, asset: "USDC", amount: "1" },
            E2E_ADMIN,
          )
        ).status,
      ).toBe(200);
      expect((await call(b.base, "GET", "/admin/ledger/verify", undefined, E2E_ADMIN)).body.ok).toBe(true);
    },
  );
});
