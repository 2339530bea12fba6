import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { httpSignIn, startServer, type ServerProcess } from "../helpers/process";
import { httpCredit, processMission, stopProcess, tempDir, useCleanups } from "../helpers/process-suite";
import { postgresBinDir, startReplicaPair } from "../helpers/replica";

const binDir = postgresBinDir();

// DATABASE_READ_URL, a real streaming replica (hot standby). Public mission reads go to
// the replica; a read presenting the write token of a write the replica has not replayed goes to
// the primary. Replay is paused on the standby (pg_wal_replay_pause) so the lag is certain, not
// a race. Skipped on PGlite (no replication) and without Debian's PostgreSQL binaries.
describe.runIf(onRealPostgres && binDir)(
  "a read replica with read-your-writes (skipped on PGlite or without /usr/lib/postgresql/*/bin)",
  () => {
    const cleanups = useCleanups();

    it(
      "routes public reads to the replica unless it lags behind the reader's write",
      { timeout: 240_000 },
      async () => {
        const pair = await startReplicaPair(binDir!);
        cleanups.push(() => pair.stop());
        const standby = postgres(pair.replicaUrl, { max: 1, onnotice: () => {} });
        cleanups.push(() => standby.end());
        expect((await standby`select pg_is_in_recovery() as r`)[0]!.r).toBe(true);
        const dir = tempDir(cleanups, "oabp-replica-srv");
        const srv: ServerProcess = await startServer({
          DATABASE_URL: pair.primaryUrl,
          DATABASE_READ_URL: pair.replicaUrl,
          OABP_DATA_DIR: dir,
        });
        cleanups.push(() => stopProcess(srv));
        const get = async (p: string, headers: Record<string, string> = {}) => {
          const r = await fetch(srv.base + p, { headers });
          return { status: r.status, from: r.headers.get("oabp-read-from"), body: (await r.json()) as any };
        };

        // No token: the replica answers the public list once it has replayed the schema this
        // server migrated the primary to; until then the primary does — never an error (a read of
        // a table the standby has not replayed yet answered 500 before).
        let cold = await get("/missions?limit=5");
        for (let i = 0; i < 100 && cold.from !== "replica"; i++) {
          expect(cold).toMatchObject({ status: 200, from: "primary" });
          await new Promise((r) => setTimeout(r, 100));
          cold = await get("/missions?limit=5");
        }
        expect(cold).toMatchObject({ status: 200, from: "replica" });
        // Non-routed reads (here /agents) never say where they went: they read the primary.
        expect((await fetch(`${srv.base}/leaderboard`)).headers.get("oabp-read-from")).toBeNull();

        const creator = await httpSignIn(srv.base);
        await httpCredit(srv.base, creator.address, "500000000");
        const create = async (title: string) => {
          const r = await fetch(`${srv.base}/missions`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${creator.token}` },
            body: JSON.stringify(processMission({ title, description: "Replica trial.", amount: "1000000" })),
          });
          expect(r.status).toBe(201);
          return {
            id: ((await r.json()) as { id: string }).id,
            token: r.headers.get("oabp-read-after")!,
            cookie: r.headers.get("set-cookie")?.split(";")[0] ?? "",
          };
        };

        // Replay paused: the standby certainly lags behind the next write.
        await standby`select pg_wal_replay_pause()`;
        const m = await create("Written while the replica lags");
        expect(m.token).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
        // Without the token the replica answers — and does not have the mission yet: reads really go there.
        const blind = await get(`/missions/${m.id}`);
        expect(blind).toMatchObject({ status: 404, from: "replica" });
        // With the token: the primary answers, the writer sees its write (by id and in the list).
        const own = await get(`/missions/${m.id}`, { "OABP-Read-After": m.token });
        expect(own).toMatchObject({ status: 200, from: "primary" });
        expect(own.body.id).toBe(m.id);
        const ownList = await get("/missions?limit=5", { "OABP-Read-After": m.token });
        expect(ownList.from).toBe("primary");
        expect(ownList.body.missions[0].id).toBe(m.id);
        // The sealed cookie the write set does the same for a client that keeps cookies.
        expect(m.cookie).toMatch(/^oabp_read_after=v1\./);
        const byCookie = await get(`/missions/${m.id}`, { cookie: m.cookie });
        expect(byCookie).toMatchObject({ status: 200, from: "primary" });

        // Replay resumed: once the standby has replayed the token, the replica answers it.
        await standby`select pg_wal_replay_resume()`;
        let caught = await get(`/missions/${m.id}`, { "OABP-Read-After": m.token });
        for (let i = 0; i < 200 && caught.from !== "replica"; i++) {
          await new Promise((r) => setTimeout(r, 50));
          caught = await get(`/missions/${m.id}`, { "OABP-Read-After": m.token });
        }
        expect(caught).toMatchObject({ status: 200, from: "replica" });
        expect(caught.body.id).toBe(m.id);
        const list = await get("/missions?limit=5", { "OABP-Read-After": m.token });
        expect(list.from).toBe("replica");
        expect(list.body.missions[0].id).toBe(m.id);

        // 20 writes with replay running: every read with the write's token sees it, wherever it goes.
        const sources = { replica: 0, primary: 0 };
        for (let i = 0; i < 20; i++) {
          const w = await create(`Trial ${i}`);
          const r = await get("/missions?limit=5", { "OABP-Read-After": w.token });
          expect(r.body.missions[0].id).toBe(w.id);
          sources[r.from as "replica" | "primary"]++;
        }
        console.log(`replica trials: ${sources.replica} served by the replica, ${sources.primary} by the primary`);
      },
    );
  },
);
