import { describe, expect, it } from "vitest";
import { PRIVATE_READ_CACHE, PUBLIC_READ_CACHE } from "../../src/http/http-cache";
import { getMissionOp } from "../../src/features/missions";
import { ctxForViewer } from "../../src/lib/context";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { acceptedSubmission, awardedTo } from "../helpers/mission-flow";

// Caches that hold under crawling: public reads tell a CDN / reverse proxy how long it
// may keep them, per caller; the list carries an ETag and answers 304 to a client that holds it.

const t = useTestApp();

describe("HTTP caching of public reads", () => {
  it("anonymous reads are public with a short max-age and stale-while-revalidate; credentialed reads private; Vary: Authorization", async () => {
    const { creator, mission } = await openMission(t);
    for (const path of [
      "/missions",
      `/missions/${mission.id}`,
      "/leaderboard",
      "/agents",
      `/agents/${creator.address}`,
      "/api/missions",
    ]) {
      const anon = await t.call("GET", path);
      expect(anon.status, path).toBe(200);
      expect(anon.headers.get("cache-control"), path).toBe(PUBLIC_READ_CACHE);
      expect(anon.headers.get("vary"), path).toContain("Authorization");
      const own = await t.call("GET", path, { token: creator.token });
      expect(own.headers.get("cache-control"), path).toBe(PRIVATE_READ_CACHE);
    }
    // Writes and non-public paths are not marked cacheable.
    const w = await t.call("POST", "/missions", { token: creator.token, body: {} });
    expect(w.headers.get("cache-control")).toBeNull();
  });

  it("GET /missions: ETag, If-None-Match → 304 without a body; a committed change → a new ETag and 200", async () => {
    const first = await t.call("GET", "/missions?limit=5");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{20,}"$/);
    for (const inm of [etag, etag.slice(2), `"x", ${etag}`, "*"]) {
      const r = await t.call("GET", "/missions?limit=5", { headers: { "if-none-match": inm } });
      expect(r.status, inm).toBe(304);
      expect(r.text).toBe("");
      expect(r.headers.get("etag")).toBe(etag);
    }
    // Another filter is another document with its own validator.
    expect((await t.call("GET", "/missions?status=voided")).headers.get("etag")).not.toBe(etag);
    await openMission(t, { title: "A newer mission" });
    const after = await t.call("GET", "/missions?limit=5", { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.body.missions[0].title).toBe("A newer mission");
  });

  it("single resources — mission, agent, submission, receipt: ETag, 304 on If-None-Match, a new ETag after a change", async () => {
    const { creator, mission } = await openMission(t, {
      reward: { asset: "USDC", amount: "100000000" },
      verification: { type: "creator_judges", params: {} },
    });
    const solver = await signIn(t);
    const sub = await acceptedSubmission(t, mission.id, solver, "the answer");
    /** The resource's ETag, checked to answer 304 (no body) when held, and 200 when not. */
    const validator = async (path: string, token?: string) => {
      const r = await t.call("GET", path, { token });
      expect(r.status, `${path} ${r.text}`).toBe(200);
      const etag = r.headers.get("etag")!;
      expect(etag, path).toMatch(/^W\/"[A-Za-z0-9_-]{20,}"$/);
      const held = await t.call("GET", path, { token, headers: { "if-none-match": etag } });
      expect(held.status, path).toBe(304);
      expect(held.text, path).toBe("");
      const other = await t.call("GET", path, { token, headers: { "if-none-match": 'W/"not-this-one"' } });
      expect(other.status, path).toBe(200);
      return etag;
    };
    const subPath = `/missions/${mission.id}/submissions/${sub.body.id}`;
    const before = {
      mission: await validator(`/missions/${mission.id}`),
      agent: await validator(`/agents/${solver.address}`),
      submission: await validator(subPath, creator.token),
    };
    await awardedTo(t, mission.id, creator, sub.body.id);
    // The award changed all three: the old validators no longer match.
    for (const [path, etag, token] of [
      [`/missions/${mission.id}`, before.mission, undefined],
      [`/agents/${solver.address}`, before.agent, undefined],
      [subPath, before.submission, creator.token],
    ] as const) {
      const r = await t.call("GET", path, { token, headers: { "if-none-match": etag } });
      expect(r.status, path).toBe(200);
      expect(r.headers.get("etag"), path).not.toBe(etag);
    }
    await validator(`/missions/${mission.id}/receipts/${sub.body.id}`);
  });

  it("an anonymous GET /missions/{id} is the cached document: byte for byte the verb's answer, its own ETag", async () => {
    const { mission } = await openMission(t, { title: "Served from the document cache" });
    const verb = JSON.stringify(await getMissionOp.verb(ctxForViewer(t.deps, undefined), { id: mission.id }));
    for (let i = 0; i < 2; i++) {
      // The first read serialises and caches the document; the second serves it.
      const r = await t.call("GET", `/missions/${mission.id}`);
      expect(r.status).toBe(200);
      expect(r.text).toBe(verb);
    }
    const etag = (await t.call("GET", `/missions/${mission.id}`)).headers.get("etag")!;
    expect((await t.call("GET", `/missions/${mission.id}`, { headers: { "if-none-match": etag } })).status).toBe(304);
  });
});
