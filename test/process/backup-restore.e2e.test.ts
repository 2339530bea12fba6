import { execFile } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { E2E_ADMIN, startServer, httpCall, httpSignIn } from "../helpers/process";
import {
  freshDatabase,
  httpCredit,
  processMission,
  stopProcess as stop,
  tempDir,
  useCleanups,
} from "../helpers/process-suite";

// Operations: the documented backup / restore procedure (docs/operations.md,
// "Backup and restore"), run once end to end. Value moves on a real server; the database is
// dumped with pg_dump -Fc while it runs, restored with pg_restore into a NEW database; a server
// started on the copy answers the same data and its ledger verifies (hash chain and balances).
const run = promisify(execFile);

describe.runIf(onRealPostgres)("backup and restore (pg_dump / pg_restore)", () => {
  const cleanups = useCleanups();
  const call = httpCall;
  const signIn = httpSignIn;

  it(
    "dump a live database, restore into a new one, start a server on it: same data, ledger verifies",
    { timeout: 120_000 },
    async () => {
      const source = await freshDatabase(cleanups, "oabp_backup_src");
      const dir = tempDir(cleanups, "oabp-backup");
      const a = await startServer({ DATABASE_URL: source.url, OABP_DATA_DIR: path.join(dir, "a") });
      cleanups.push(() => stop(a));

      const creator = await signIn(a.base);
      const solver = await signIn(a.base);
      await httpCredit(a.base, creator.address, "500000000");
      const mission = (
        await call(
          a.base,
          "POST",
          "/missions",
          processMission({
            title: "Backed up",
            description: "A mission whose award must survive a restore.",
            amount: "100000000",
            tags: ["backup"],
          }),
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
      const target = await freshDatabase(cleanups, "oabp_backup_dst");
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
      await httpCredit(b.base, solver.address, "1");
      expect((await call(b.base, "GET", "/admin/ledger/verify", undefined, E2E_ADMIN)).body.ok).toBe(true);
    },
  );
});
