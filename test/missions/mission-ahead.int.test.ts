import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../helpers/app";
import { openMission } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// GET /missions/{id} answered ahead of the route (docs/decisions/storage.md "The anonymous mission
// read is answered ahead of the route"): a request with no query string takes the middleware's
// answer; the same request with a tolerated query key (`_`, a cache-buster) goes through the route.
// Both must give the same status, bytes and headers (the request id's value aside).

const t = useTestApp();

const admin = (method: string, path: string, body?: unknown) => t.call(method, path, { token: ADMIN_TOKEN, body });

async function raw(path: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(path, { method: "GET", headers });
  // An error body names the request id too: only that value is blanked.
  const bytes = Buffer.from(await res.arrayBuffer())
    .toString("latin1")
    .replace(/"request_id":"req_\w+"/, "");
  const h = Object.fromEntries([...res.headers].filter(([k]) => k !== "x-request-id"));
  expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  return { status: res.status, bytes, headers: h };
}

/** The answer ahead of the route and the route's own, for the same request. */
async function both(path: string, headers: Record<string, string> = {}) {
  const ahead = await raw(path, headers);
  const route = await raw(`${path}?_=1`, headers);
  return { ahead, route };
}

describe("the anonymous mission read ahead of the route", () => {
  it("answers the same status, bytes and headers as the route, cached or not, at both prefixes", async () => {
    const { mission } = await openMission(t);
    for (const prefix of ["", "/api"]) {
      const cold = await both(`${prefix}/missions/${mission.id}`);
      expect(cold.ahead.status).toBe(200);
      expect(cold.ahead).toEqual(cold.route);
      const warm = await both(`${prefix}/missions/${mission.id}`);
      expect(warm.ahead).toEqual(cold.ahead);
      expect(warm.ahead.headers.etag).toBeTruthy();
    }
  });

  it("answers 304 to a matching If-None-Match, as the route does", async () => {
    const { mission } = await openMission(t);
    const first = await raw(`/missions/${mission.id}`);
    const { ahead, route } = await both(`/missions/${mission.id}`, { "if-none-match": first.headers.etag! });
    expect(ahead.status).toBe(304);
    expect(ahead).toEqual(route);
  });

  it("compresses as the route does when Accept-Encoding asks", async () => {
    const { mission } = await openMission(t);
    const { ahead, route } = await both(`/missions/${mission.id}`, { "accept-encoding": "gzip, br" });
    expect(ahead).toEqual(route);
  });

  it("a missing and a malformed id answer the route's 404 and 400", async () => {
    const missing = await both("/missions/mis_01JZZZZZZZZZZZZZZZZZZZZZZZ");
    expect(missing.ahead.status).toBe(404);
    expect(missing.ahead).toEqual(missing.route);
    const malformed = await both(`/missions/${"x".repeat(80)}`);
    expect(malformed.ahead.status).toBe(400);
    expect(malformed.ahead).toEqual(malformed.route);
  });

  it("a hidden mission and a suspended creator's mission answer as the route does", async () => {
    const { creator, mission } = await openMission(t);
    await raw(`/missions/${mission.id}`); // cached before the moderation
    expect((await admin("POST", `/admin/agents/${creator.address}/suspend`, { reason: "abuse" })).status).toBe(200);
    const suspended = await both(`/missions/${mission.id}`);
    expect(suspended.ahead).toEqual(suspended.route);
    expect((await admin("POST", `/admin/missions/${mission.id}/hide`, { reason: "scam" })).status).toBe(200);
    const hidden = await both(`/missions/${mission.id}`);
    expect(hidden.ahead.status).toBe(404);
    expect(hidden.ahead).toEqual(hidden.route);
  });

  it("a signed-in reader is answered by the route (private caching, its own view)", async () => {
    const { creator, mission } = await openMission(t);
    const own = await both(`/missions/${mission.id}`, { authorization: `Bearer ${creator.token}` });
    expect(own.ahead.status).toBe(200);
    expect(own.ahead.headers["cache-control"]).toMatch(/private/);
    expect(own.ahead).toEqual(own.route);
  });
});
