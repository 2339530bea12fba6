import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { agentRecords, missions } from "../../src/db/schema/index";
import { listMissions, ListMissionsQuery } from "../../src/features/missions";
import { ctxForViewer } from "../../src/lib/context";
import { missionBody, openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { withSecondInstance } from "../helpers/second-instance";
import { useTestApp } from "../helpers/suite-app";
import { acceptedSubmission, awardedTo } from "../helpers/mission-flow";

// List pages assembled from serialized missions cached under (id, row_version), and
// ETags on single resources. The list cache is OFF here (OABP_LIST_CACHE_BYTES=0), so every list
// read takes the page path: a stale document would show at once.

const t = useTestApp({ OABP_LIST_CACHE_BYTES: "0" });

const versionOf = async (id: string) => {
  const [r] = await t.deps.database.db.select({ v: missions.rowVersion }).from(missions).where(eq(missions.id, id));
  return r!.v;
};

describe("mission documents keyed by row_version", () => {
  it("every update bumps row_version, even one that leaves updated_at alone", async () => {
    const { mission } = await openMission(t);
    const v0 = await versionOf(mission.id);
    await t.deps.database.db
      .update(missions)
      .set({ submissionCount: sql`${missions.submissionCount} + 1` })
      .where(eq(missions.id, mission.id));
    const v1 = await versionOf(mission.id);
    expect(v1).toBeGreaterThan(v0);
    // An update that sets row_version itself cannot go back: the trigger overrides it.
    await t.deps.database.db.update(missions).set({ rowVersion: v0 }).where(eq(missions.id, mission.id));
    expect(await versionOf(mission.id)).toBeGreaterThan(v1);
  });

  it("a list never serves a cached document after the row changed behind the app's back", async () => {
    const { creator, mission } = await openMission(t);
    const q = `/missions?creator=${creator.address}`;
    expect((await t.call("GET", q)).body.missions[0].title).toBe("Find the key");
    expect((await t.call("GET", q)).body.missions[0].title).toBe("Find the key"); // from the document cache
    await t.deps.database.db.update(missions).set({ title: "Renamed by SQL" }).where(eq(missions.id, mission.id));
    expect((await t.call("GET", q)).body.missions[0].title).toBe("Renamed by SQL"); // no wait, no NOTIFY needed
    await t.deps.database.db.update(missions).set({ submissionCount: 7 }).where(eq(missions.id, mission.id));
    expect((await t.call("GET", q)).body.missions[0].submission_count).toBe(7);
  });

  it("GET /missions/{id} never answers from its assembled copy after the row or the creator's record moved", async () => {
    const { creator, mission } = await openMission(t);
    const path = `/missions/${mission.id}`;
    const first = await t.call("GET", path);
    expect((await t.call("GET", path)).text).toBe(first.text); // the assembled answer, same bytes
    await t.deps.database.db.update(missions).set({ title: "Renamed by SQL" }).where(eq(missions.id, mission.id));
    const renamed = await t.call("GET", path);
    expect(renamed.body.title).toBe("Renamed by SQL");
    expect(renamed.headers.get("etag")).not.toBe(first.headers.get("etag"));
    // The record belongs to the creator: it moves without the mission's row_version.
    await t.deps.database.db
      .update(agentRecords)
      .set({ missionsPosted: 41 })
      .where(eq(agentRecords.agentId, creator.address));
    const counted = await t.call("GET", path);
    expect(counted.body.creator_record.posted).toBe(41);
    expect(counted.headers.get("etag")).not.toBe(renamed.headers.get("etag"));
    expect((await t.call("GET", path, { headers: { "if-none-match": renamed.headers.get("etag")! } })).status).toBe(
      200,
    );
  });

  it("shows a submission through the API at once on the unfiltered and deep pages", async () => {
    const { mission } = await openMission(t);
    const first = await t.call("GET", "/missions?limit=100");
    expect(first.body.missions.find((m: { id: string }) => m.id === mission.id).submission_count).toBe(0);
    const solver = await signIn(t);
    await acceptedSubmission(t, mission.id, solver, "x");
    const again = await t.call("GET", "/missions?limit=100");
    expect(again.body.missions.find((m: { id: string }) => m.id === mission.id).submission_count).toBe(1);
    expect(again.headers.get("etag")).not.toBe(first.headers.get("etag"));
  });

  it("pages are byte for byte the mapped rows (filters, cursors), whatever the cache holds", async () => {
    const { creator } = await openMission(t, { tags: ["alpha"] });
    for (let i = 0; i < 4; i++)
      await t.call("POST", "/missions", {
        token: creator.token,
        body: missionBody(t, { title: `M${i}`, tags: ["alpha"] }),
      });
    const queries: Record<string, string>[] = [
      { limit: "2" },
      { limit: "2", tag: "alpha" },
      { limit: "3", creator: creator.address },
      { status: "open", verification_type: "creator_judges", limit: "4" },
    ];
    for (const raw of queries) {
      let cursor: string | null = null;
      for (let page = 0; page < 3; page++) {
        const query = ListMissionsQuery.parse(cursor ? { ...raw, cursor } : raw);
        const expected = JSON.stringify(await listMissions(ctxForViewer(t.deps, undefined), query));
        const params = new URLSearchParams(cursor ? { ...raw, cursor } : raw);
        const r = await t.call("GET", `/missions?${params}`);
        expect(r.status).toBe(200);
        expect(r.text).toBe(expected);
        expect(await t.call("GET", `/missions?${params}`).then((x) => x.text)).toBe(expected); // warm
        cursor = r.body.next_cursor;
        if (!cursor) break;
      }
    }
  });

  it("a mission taken out of public view is never listed from the cache", async () => {
    const { creator, mission } = await openMission(t);
    const q = `/missions?creator=${creator.address}`;
    expect((await t.call("GET", q)).body.missions).toHaveLength(1);
    await t.deps.database.db
      .update(missions)
      .set({ status: "pending_escrow", phase: "awaiting_escrow" })
      .where(eq(missions.id, mission.id));
    expect((await t.call("GET", q)).body.missions).toHaveLength(0);
    expect((await t.call("GET", `/missions?limit=100`)).text).not.toContain(mission.id);
  });

  it("sealed answers stay sealed in lists after the creator read the mission unsealed", async () => {
    const secret = "the-sealed-answer-42";
    const { creator, mission } = await openMission(t, {
      verification: { type: "first_valid_match", params: { expected: secret, match_mode: "exact" } },
    });
    const own = await t.call("GET", `/missions/${mission.id}`, { token: creator.token });
    expect(own.body.verification.params.expected).toBe(secret);
    for (const q of [`/missions?creator=${creator.address}`, "/missions?limit=100"]) {
      const r = await t.call("GET", q, { token: creator.token });
      expect(r.text).not.toContain(secret);
      expect(r.body.missions.find((m: { id: string }) => m.id === mission.id).verification.params.expected_sealed).toBe(
        true,
      );
    }
    const anon = await t.call("GET", `/missions/${mission.id}`);
    expect(anon.text).not.toContain(secret);
    expect(anon.headers.get("etag")).not.toBe(own.headers.get("etag"));
  });
});

describe("ETags on single resources", () => {
  const revalidate = (path: string, etag: string, token?: string) =>
    t.call("GET", path, { token, headers: { "if-none-match": etag } });

  it("GET /missions/{id}: ETag, 304 on If-None-Match, a new ETag after a write", async () => {
    const { mission } = await openMission(t);
    const path = `/missions/${mission.id}`;
    const a = await t.call("GET", path);
    const etag = a.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(a.headers.get("cache-control")).toBe("public, max-age=5, stale-while-revalidate=30");
    expect(a.headers.get("vary")).toContain("Authorization");
    const nm = await revalidate(path, etag);
    expect(nm.status).toBe(304);
    expect(nm.text).toBe("");
    expect(nm.headers.get("etag")).toBe(etag);
    expect(nm.headers.get("cache-control")).toBe("public, max-age=5, stale-while-revalidate=30");
    expect((await revalidate(path, `"other", ${etag.slice(2)}`)).status).toBe(304); // weak comparison, lists
    const solver = await signIn(t);
    await t.call("POST", `/missions/${mission.id}/submissions`, { token: solver.token, body: { content: "x" } });
    const after = await revalidate(path, etag);
    expect(after.status).toBe(200);
    expect(after.body.submission_count).toBe(1);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((await revalidate(path, after.headers.get("etag")!)).status).toBe(304);
  });

  it("GET /agents/{id}: 304 until the profile changes", async () => {
    const agent = await signIn(t);
    const path = `/agents/${agent.address}`;
    const a = await t.call("GET", path);
    expect(a.status).toBe(200);
    const etag = a.headers.get("etag")!;
    expect((await revalidate(path, etag)).status).toBe(304);
    const put = await t.call("PUT", path, { token: agent.token, body: { display_name: "Renamed" } });
    expect(put.status, put.text).toBe(200);
    const b = await revalidate(path, etag);
    expect(b.status).toBe(200);
    expect(b.body.display_name).toBe("Renamed");
  });

  it("GET /missions/{id}/submissions/{sid}: 304 until the award changes it", async () => {
    const { creator, mission } = await openMission(t);
    const solver = await signIn(t);
    const s = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: solver.token,
      body: { content: "x" },
    });
    const path = `/missions/${mission.id}/submissions/${s.body.id}`;
    const a = await t.call("GET", path);
    expect(a.status, a.text).toBe(200);
    const etag = a.headers.get("etag")!;
    expect((await revalidate(path, etag)).status).toBe(304);
    await awardedTo(t, mission.id, creator, s.body.id);
    const b = await revalidate(path, etag);
    expect(b.status).toBe(200);
    expect(b.headers.get("etag")).not.toBe(etag);
  });

  it("a missing resource answers 404, not 304, whatever If-None-Match says", async () => {
    expect((await revalidate("/missions/mis_01JZZZZZZZZZZZZZZZZZZZZZZZ", "*")).status).toBe(404);
  });
});

describe.runIf(onRealPostgres)("two instances on one database", () => {
  it("a write through one instance shows at once in the other's list pages and ETags", async () => {
    // Its own database handle, so its own document cache; its list cache off (NOTIFY is async).
    await withSecondInstance(t, 0, async (other) => {
      const { creator, mission } = await openMission(t);
      const q = `/missions?creator=${creator.address}`;
      const read = async () => (await (await other.request(q)).json()) as { missions: { submission_count: number }[] };
      expect((await read()).missions[0]!.submission_count).toBe(0);
      expect((await read()).missions[0]!.submission_count).toBe(0); // cached document on the other instance
      const one = await other.request(`/missions/${mission.id}`);
      const etag = one.headers.get("etag")!;
      const solver = await signIn(t);
      await t.call("POST", `/missions/${mission.id}/submissions`, { token: solver.token, body: { content: "x" } });
      expect((await read()).missions[0]!.submission_count).toBe(1);
      const two = await other.request(`/missions/${mission.id}`, { headers: { "if-none-match": etag } });
      expect(two.status).toBe(200);
      expect(((await two.json()) as { submission_count: number }).submission_count).toBe(1);
    });
  });
});
