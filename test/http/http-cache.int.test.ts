import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRIVATE_READ_CACHE, PUBLIC_READ_CACHE } from "../../src/http/http-cache";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openMission } from "../helpers/agents";

// Caches that hold under crawling: public reads tell a CDN / reverse proxy how long it
// may keep them, per caller; the list carries an ETag and answers 304 to a client that holds it.

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t?.close());

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
});
