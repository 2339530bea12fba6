import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { missions } from "../../src/db/schema/index";
import { inflightBytes } from "../../src/http/inflight";
import type { AppEnv } from "../../src/http/types";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// Lists never inline deliverables and stop at a byte
// cap; the per-submission content route serves the bytes with its own caching; in-flight request
// bytes are bounded; first_valid_match answers are sealed; predicate_uri creators do not read
// pending work. An anonymous list of 100 × 1 MiB deliverables is ≤ 2 MiB.

const MiB = 1024 * 1024;
// 1 MiB deliverables as data: URIs need a body limit above 1 MiB (base64 + JSON).
const t = useTestApp({ OABP_BODY_LIMIT_BYTES: String(2 * MiB) });

const sha = (b: Buffer) => `sha256:${createHash("sha256").update(b).digest("hex")}`;

describe("bounded list responses and the content route", () => {
  it("anonymous list of a decided mission with 100 × 1 MiB deliverables: ≤ 2 MiB, every deliverable behind its content route", async () => {
    const { creator, mission } = await openMission(t);
    const bodies: Buffer[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const agent = await signIn(t);
      const bytes = randomBytes(786_000); // its data: URI is just under 1 MiB, the content_uri cap
      const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: agent.token,
        body: { content_uri: `data:application/octet-stream;base64,${bytes.toString("base64")}` },
      });
      expect(r.status, r.text.slice(0, 200)).toBe(201);
      bodies.push(bytes);
      ids.push(r.body.id);
    }
    // Decided: every deliverable is public now, so an anonymous caller may read them all.
    expect(
      (
        await t.call("POST", `/missions/${mission.id}/award`, {
          token: creator.token,
          body: { winners: [{ submission_id: ids[0] }] },
        })
      ).status,
    ).toBe(200);

    const list = await t.call("GET", `/missions/${mission.id}/submissions?limit=100`);
    expect(list.status).toBe(200);
    expect(Buffer.byteLength(list.text)).toBeLessThanOrEqual(2 * MiB);
    expect(list.body.submissions).toHaveLength(100);
    expect(list.body.next_cursor).toBeNull();
    for (const s of list.body.submissions)
      expect(s.content_uri).toBe(`http://oabp.test/missions/${mission.id}/submissions/${s.id}/content`);

    // The content route: the bytes, ETag = content hash, a revalidation is a 304.
    const path = `/missions/${mission.id}/submissions/${ids[7]}/content`;
    const res = await t.app.request(path);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bodies[7]!)).toBe(true);
    expect(res.headers.get("etag")).toBe(`"${sha(bodies[7]!)}"`);
    expect(res.headers.get("cache-control")).toContain("public");
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    // Active content is never served as such from the site's origin: a download, not a script.
    const open = await openMission(t);
    const js = await t.call("POST", `/missions/${open.mission.id}/submissions`, {
      token: (await signIn(t)).token,
      body: { content_uri: "data:text/javascript,alert(1)" },
    });
    expect(js.status, js.text).toBe(201);
    const served = await t.app.request(`/missions/${open.mission.id}/submissions/${js.body.id}/content`, {
      headers: { authorization: `Bearer ${open.creator.token}` },
    });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/octet-stream");
    expect(served.headers.get("content-disposition")).toBe("attachment");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    const again = await t.app.request(path, { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  }, 120_000);

  it("a page stops at LIST_MAX_BYTES (1 MiB) and next_cursor carries on; pending deliverables stay private to others", async () => {
    const { creator, mission } = await openMission(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const agent = await signIn(t);
      const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: agent.token,
        body: { content: `answer ${i}`, metadata: { notes: "x".repeat(600 * 1024) } },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const r = await t.call(
        "GET",
        `/missions/${mission.id}/submissions?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(2 * MiB);
      expect(r.body.submissions.length).toBe(1); // two would pass 1 MiB
      for (const s of r.body.submissions) expect(s.content_uri).toBeNull(); // anonymous, mission open
      seen.push(...r.body.submissions.map((s: { id: string }) => s.id));
      cursor = r.body.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(ids);
    // The creator reads a pending deliverable through the content route; anyone else gets 403.
    const path = `/missions/${mission.id}/submissions/${ids[1]}/content`;
    expect((await t.app.request(path)).status).toBe(403);
    const mine = await t.app.request(path, { headers: { authorization: `Bearer ${creator.token}` } });
    expect(mine.status).toBe(200);
    expect(await mine.text()).toBe("answer 1");
    expect(mine.headers.get("cache-control")).toContain("private");
  });
});

describe("sealed first_valid_match answers; predicate_uri creators", () => {
  const fvm = (params: Record<string, unknown>) => ({
    verification: { type: "first_valid_match", params },
    reward: { asset: "USDC", amount: "10000000" },
  });

  it("exact and substring `expected` are served to the creator only until the mission is decided; a regex stays public", async () => {
    for (const mode of ["exact", "substring"]) {
      const secret = `the secret answer (${mode})`;
      const { creator, mission } = await openMission(t, fvm({ expected: secret, match_mode: mode }));
      expect(mission.verification.params.expected).toBe(secret); // the creator's own 201
      const anon = await t.call("GET", `/missions/${mission.id}`);
      expect(anon.body.verification.params).toMatchObject({ match_mode: mode, expected_sealed: true });
      expect(anon.body.verification.params).not.toHaveProperty("expected");
      expect(anon.text).not.toContain(secret);
      const other = await signIn(t);
      expect((await t.call("GET", `/missions/${mission.id}`, { token: other.token })).text).not.toContain(secret);
      expect((await t.call("GET", "/missions?limit=100")).text).not.toContain(secret);
      expect(
        (await t.call("GET", `/missions/${mission.id}`, { token: creator.token })).body.verification.params.expected,
      ).toBe(secret);
      // A solver still wins by sending the answer, and afterwards the terms are public whole.
      const solver = await signIn(t);
      expect(
        (
          await t.call("POST", `/missions/${mission.id}/submissions`, {
            token: solver.token,
            body: { content: secret },
          })
        ).body.status,
      ).toBe("accepted");
      expect((await t.call("GET", `/missions/${mission.id}`)).body.verification.params.expected).toBe(secret);
    }
    const { mission } = await openMission(t, fvm({ expected: "^[0-9]{4}$", match_mode: "regex" }));
    expect((await t.call("GET", `/missions/${mission.id}`)).body.verification.params.expected).toBe("^[0-9]{4}$");
  });

  it("predicate_uri: the creator does not see pending deliverables (the submitter does)", async () => {
    const { creator, mission } = await openMission(t, fvm({ predicate_uri: "https://predicate.example/check" }));
    const solver = await signIn(t);
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: solver.token,
      body: { content: "work" },
    });
    expect(r.status).toBe(201);
    expect(r.body.content_uri).toMatch(/^data:/);
    expect(
      (await t.call("GET", `/missions/${mission.id}/submissions/${r.body.id}`, { token: creator.token })).body
        .content_uri,
    ).toBeNull();
    expect(
      (await t.call("GET", `/missions/${mission.id}/submissions`, { token: creator.token })).body.submissions[0]
        .content_uri,
    ).toBeNull();
    expect(
      (
        await t.app.request(`/missions/${mission.id}/submissions/${r.body.id}/content`, {
          headers: { authorization: `Bearer ${creator.token}` },
        })
      ).status,
    ).toBe(403);
    // Still hidden from the creator after the deadline while the mission waits for the predicate.
    await t.deps.database.db
      .update(missions)
      .set({ status: "escrowed", phase: "verifying" })
      .where(eq(missions.id, mission.id));
    expect(
      (await t.call("GET", `/missions/${mission.id}/submissions/${r.body.id}`, { token: creator.token })).body
        .content_uri,
    ).toBeNull();
  });
});

describe("in-flight request bytes", () => {
  it("a caller past its share gets 429, the process past its total 503, both with Retry-After; bytes are released after each response", async () => {
    const app = new Hono<AppEnv>();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    app.use("*", async (c, next) => {
      c.set("identity", { kind: "agent", address: c.req.header("x-agent")! } as never);
      c.set("requestId" as never, "req_test" as never);
      await next();
    });
    const gates = inflightBytes({ perCaller: 2 * MiB, total: 3 * MiB, bodyLimit: MiB, trustProxy: false });
    app.use("*", gates.total);
    app.use("*", gates.perCaller);
    app.post("/x", async (c) => {
      await gate;
      return c.json({ ok: true });
    });
    const post = (agent: string, bytes: number) =>
      app.request("/x", {
        method: "POST",
        headers: { "x-agent": agent, "content-length": String(bytes), "content-type": "application/json" },
        body: "x".repeat(bytes),
      });
    const a1 = post("a", MiB);
    const a2 = post("a", MiB);
    await new Promise((r) => setTimeout(r, 0));
    const a3 = await post("a", 1); // a holds 2 MiB: its share is full
    expect(a3.status).toBe(429);
    expect(a3.headers.get("retry-after")).toBe("1");
    expect(((await a3.json()) as { details: { reason: string } }).details.reason).toBe("inflight_bytes_caller");
    const b1 = post("b", MiB); // 3 MiB in flight: the process total is full
    await new Promise((r) => setTimeout(r, 0));
    const c1 = await post("c", 1);
    expect(c1.status).toBe(503);
    expect(c1.headers.get("retry-after")).toBe("1");
    release();
    expect((await Promise.all([a1, a2, b1])).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await post("a", MiB)).status).toBe(200); // released
  });
});
