import { describe, expect, it } from "vitest";
import { missionBody, openMission } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { withReplicaOf } from "../helpers/second-instance";
import { useTestApp } from "../helpers/suite-app";

const t = useTestApp();

// Read-your-writes tokens (src/http/read-after.ts; docs/operations.md). Across
// processes and with a replica: test/process/two-process.e2e.test.ts and replica.e2e.test.ts.
describe("OABP-Read-After", () => {
  it("without a replica a write answers no token: every read goes to the primary, where lists are exact", async () => {
    const { creator } = await openMission(t);
    const r = await t.call("POST", "/missions", { token: creator.token, body: missionBody(t, { title: "No token" }) });
    expect(r.status).toBe(201);
    expect(r.headers.get("oabp-read-after")).toBeNull();
    expect(r.headers.get("set-cookie")).toBeNull();
    // …and the writer's next list read has the write (no token needed).
    const list = await t.call("GET", `/missions?creator=${creator.address}`);
    expect(list.body.missions[0].id).toBe(r.body.id);
  });

  it.runIf(onRealPostgres)("with a replica a write answers the token as header and sealed cookie", async () => {
    const { creator } = await openMission(t);
    // The test's own database stands in for the replica: it replays nothing (pg_last_wal_replay_lsn()
    // is null on a primary), so a read with a token goes to the primary. Real streaming
    // replication: test/process/replica.e2e.test.ts.
    await withReplicaOf(t, async (app) => {
      const post = (title: string) =>
        app.request("/missions", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${creator.token}` },
          body: JSON.stringify(missionBody(t, { title })),
        });
      const r = await post("Token");
      expect(r.status).toBe(201);
      const header = r.headers.get("oabp-read-after");
      expect(header).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
      // The cookie carries the position sealed (docs/operations.md "The read-after cookie is sealed").
      const cookie = /oabp_read_after=([^;]+); Path=\/; Max-Age=60/.exec(r.headers.get("set-cookie") ?? "")?.[1];
      expect(cookie).toMatch(/^v1\.[A-Za-z0-9_-]{48}$/);
      expect(cookie).not.toContain(header!.split("/")[1]!);
      expect(r.headers.get("access-control-expose-headers")).toContain("OABP-Read-After");
      // A later write answers a later (or equal) position.
      const r2 = await post("Later");
      const id2 = ((await r2.json()) as { id: string }).id;
      const [a, b] = [header!, r2.headers.get("oabp-read-after")!].map((x) => {
        const [hi, lo] = x.split("/");
        return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
      });
      expect(b! > a!).toBe(true);
      // The writer's list read with its token (header, then cookie) goes to the primary and includes the write.
      const byToken: Record<string, string>[] = [
        { "OABP-Read-After": r2.headers.get("oabp-read-after")! },
        { cookie: r2.headers.get("set-cookie")!.split(";")[0]! },
      ];
      for (const headers of byToken) {
        const list = await app.request(`/missions?creator=${creator.address}`, { headers });
        expect(list.headers.get("oabp-read-from")).toBe("primary");
        expect(((await list.json()) as { missions: { id: string }[] }).missions[0]!.id).toBe(id2);
      }
      // A failed write answers no token.
      const bad = await app.request("/missions", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${creator.token}` },
        body: JSON.stringify({ title: "" }),
      });
      expect(bad.status).toBe(400);
      expect(bad.headers.get("oabp-read-after")).toBeNull();
    });
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
