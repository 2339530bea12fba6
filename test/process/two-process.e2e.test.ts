import { describe, expect, it } from "vitest";
import { newKeyRecord } from "../../src/lib/receipt-keys";
import { onRealPostgres } from "../helpers/db";
import { httpCall, httpSignIn } from "../helpers/process";
import { eventually, httpCredit, processMission, startPair, useCleanups } from "../helpers/process-suite";

// A fleet on one database: two real server processes on one Postgres. Writes on one are
// read on the other — by id at once, in the other's (warmed) list cache as soon as the commit's
// NOTIFY arrives — and a leaderboard cursor minted on one pages on the other.
describe.runIf(onRealPostgres)("two instances on one Postgres", () => {
  const cleanups = useCleanups();
  const call = httpCall;
  const signIn = httpSignIn;

  it("writes on A are read on B; B's list cache is invalidated; cursors travel", { timeout: 120_000 }, async () => {
    const { a, b } = await startPair(cleanups, "oabp_fleet", sharedKeys());

    const creator = await signIn(a.base);
    await httpCredit(a.base, creator.address, "500000000");
    // Warm B's list cache, then write on A.
    const warm = await call(b.base, "GET", "/missions?limit=10");
    expect(warm.body.missions).toEqual([]);
    const m = await call(
      a.base,
      "POST",
      "/missions",
      processMission({ title: "Fleet", description: "Created on instance A.", amount: "100000000", tags: ["fleet"] }),
      creator.token,
    );
    expect(m.status, m.text).toBe(201);
    // By id: no cache in the way, at once. The token minted on A works on B.
    expect((await call(b.base, "GET", `/missions/${m.body.id}`)).body.id).toBe(m.body.id);
    expect((await call(b.base, "GET", `/agents/${creator.address}`, undefined, creator.token)).status).toBe(200);
    // The list: B's cached page is dropped by the NOTIFY of A's commit.
    const listed = await eventually(
      () => call(b.base, "GET", "/missions?limit=10"),
      (r) => r.body.missions.length === 1,
    );
    expect(listed.body.missions.map((x: { id: string }) => x.id)).toEqual([m.body.id]);
    const tagged = await call(b.base, "GET", "/missions?tag=fleet");
    expect(tagged.body.missions.map((x: { id: string }) => x.id)).toEqual([m.body.id]);

    // A leaderboard cursor from A pages on B (the snapshot is the database's, not the instance's).
    for (let i = 0; i < 3; i++) await signIn(a.base);
    const p1 = await call(a.base, "GET", "/agents?limit=2");
    expect(p1.body.next_cursor).toBeTruthy();
    const p2 = await call(b.base, "GET", `/agents?limit=2&cursor=${p1.body.next_cursor}`);
    expect(p2.status, p2.text).toBe(200);
    const walked = [...p1.body.agents, ...p2.body.agents].map((x: { agent_id: string }) => x.agent_id);
    expect(new Set(walked).size).toBe(4);
  });

  // Finding: in 3/40 trials the first list read on B right after a write on A returned
  // B's old cached page (the NOTIFY had not arrived yet). Now every cached read checks the missions
  // epoch the write bumped at commit (docs/decisions/storage.md "Exact list caches across instances"): the
  // first read on B sees A's write with no token at all — which is why, without a replica, a write
  // answers none (the token's own paths: test/http/read-after.int.test.ts, replica.e2e.test.ts).
  it(
    "read-your-writes across instances: 200 trials, the first read on B after a write on A is never stale",
    { timeout: 400_000 },
    async () => {
      const { a, b } = await startPair(cleanups, "oabp_ryw", sharedKeys());
      const creator = await signIn(a.base);
      await httpCredit(a.base, creator.address, "100000000000");
      const create = async (title: string) => {
        const res = await fetch(`${a.base}/missions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${creator.token}` },
          body: JSON.stringify(processMission({ title, description: "Read-your-writes trial.", amount: "1000000" })),
        });
        expect(res.status).toBe(201);
        return { id: ((await res.json()) as { id: string }).id, headers: res.headers };
      };
      /** B's first page, twice from cache when warm: the first mission's id. */
      const first = async () => {
        const r = await fetch(`${b.base}/missions?limit=5`);
        expect(r.status).toBe(200);
        return ((await r.json()) as { missions: { id: string }[] }).missions[0]?.id;
      };
      const TRIALS = 200;
      let stale = 0;
      for (let i = 0; i < TRIALS; i++) {
        await first(); // warm B's cached first page
        await first(); // …and serve it from the cache once, so it is there
        const { id, headers } = await create(`Trial ${i}`);
        expect(headers.get("oabp-read-after")).toBeNull();
        if ((await first()) !== id) stale++;
      }
      console.log(`read-your-writes: ${stale}/${TRIALS} stale`);
      expect(stale).toBe(0);
      // A malformed token is a clear 400, not a silent stale read.
      const bad = await call(b.base, "GET", "/missions", undefined, undefined, { "OABP-Read-After": "yesterday" });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("INVALID_PARAMETER");
    },
  );
});

/** Instances of one deployment share the receipt keys (docs/configuration.md). */
function sharedKeys() {
  return { OABP_RECEIPT_KEYS: JSON.stringify([newKeyRecord(new Date())]) };
}
