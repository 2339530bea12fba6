import { describe, expect, it } from "vitest";
import { missionBody, openMission } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { useTestApp } from "../helpers/suite-app";

const t = useTestApp();

// Read-your-writes tokens (src/http/read-after.ts; docs/operations.md). Across
// processes and with a replica: test/process/two-process.e2e.test.ts and replica.e2e.test.ts.
describe("OABP-Read-After", () => {
  it("a write answers the token (Postgres) as header and cookie; PGlite needs none", async () => {
    const { creator } = await openMission(t);
    const r = await t.call("POST", "/missions", { token: creator.token, body: missionBody(t, { title: "Token" }) });
    expect(r.status).toBe(201);
    const header = r.headers.get("oabp-read-after");
    if (onRealPostgres) {
      expect(header).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
      // The cookie carries the position sealed (docs/operations.md "The read-after cookie is sealed").
      const cookie = /oabp_read_after=([^;]+); Path=\/; Max-Age=60/.exec(r.headers.get("set-cookie") ?? "")?.[1];
      expect(cookie).toMatch(/^v1\.[A-Za-z0-9_-]{48}$/);
      expect(cookie).not.toContain(header!.split("/")[1]!);
      expect(r.headers.get("access-control-expose-headers")).toContain("OABP-Read-After");
      // A later write answers a later (or equal) position.
      const r2 = await t.call("POST", "/missions", { token: creator.token, body: missionBody(t, { title: "Later" }) });
      const [a, b] = [header!, r2.headers.get("oabp-read-after")!].map((x) => {
        const [hi, lo] = x.split("/");
        return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
      });
      expect(b! > a!).toBe(true);
      // The writer's list read with its token includes the write.
      const list = await t.call("GET", `/missions?creator=${creator.address}`, {
        headers: { "OABP-Read-After": r2.headers.get("oabp-read-after")! },
      });
      expect(list.body.missions[0].id).toBe(r2.body.id);
    } else {
      expect(header).toBeNull();
    }
    // A failed write answers no token.
    const bad = await t.call("POST", "/missions", { token: creator.token, body: { title: "" } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("oabp-read-after")).toBeNull();
  });

  it.runIf(onRealPostgres)(
    "a malformed header is a 400 naming it; a malformed or forged cookie is ignored",
    async () => {
      const r = await t.call("GET", "/missions", { headers: { "OABP-Read-After": "not-a-token" } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: "INVALID_PARAMETER", details: { field: "OABP-Read-After" } });
      for (const forged of ["garbage", "FFFFFFFF/FFFFFFFF", `v1.${"A".repeat(48)}`]) {
        const c = await t.call("GET", "/missions", { headers: { cookie: `oabp_read_after=${forged}` } });
        expect(c.status).toBe(200);
      }
    },
  );
});
