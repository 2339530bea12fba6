import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { webhookEvents } from "../../src/db/schema/index";
import { ADMIN_TOKEN } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { onRealPostgres } from "../helpers/db";
import { MESSAGE_MAX_BYTES, sendMessage } from "../../src/features/messages/messages.service";
import { ctxForViewer } from "../../src/lib/context";
import type { AppError } from "../../src/lib/errors";
import { useTestApp } from "../helpers/suite-app";

// Private messages about a submission: only the creator and the submitter, opaque bodies, bounded lists, cursor paging.

const t = useTestApp({}, { limits: { messageMaxPerSubmission: 5 } });

type Agent = Awaited<ReturnType<typeof signIn>>;

/** A mission of `creator` with one submission by `solver`. */
async function thread() {
  const { creator, mission } = await openMission(t);
  const solver = await signIn(t);
  const s = await t.call("POST", `/missions/${mission.id}/submissions`, {
    token: solver.token,
    body: { content: "my answer" },
  });
  if (s.status >= 300) throw new Error(`submit failed: ${s.status} ${s.text}`);
  return { creator, solver, missionId: mission.id as string, submissionId: s.body.id as string };
}
const send = (p: { missionId: string; submissionId: string }, from: Agent | undefined, body: unknown) =>
  t.call("POST", `/missions/${p.missionId}/submissions/${p.submissionId}/messages`, { token: from?.token, body });
const get = (path: string, who?: Agent) => t.call("GET", path, { token: who?.token });

describe("send, inbox, sent, read marks", () => {
  it("the submitter writes to the creator and back; inbox, sent, thread and read marks agree", async () => {
    const p = await thread();
    // An armored ciphertext: stored and returned byte for byte.
    const cipher = "-----BEGIN PGP MESSAGE-----\n\nhQEMA+Zk3…é\u{1F512}\n=abcd\n-----END PGP MESSAGE-----\n";
    const m1 = await send(p, p.solver, { body: cipher });
    expect(m1.status, m1.text).toBe(201);
    expect(m1.headers.get("cache-control")).toBe("private, no-store");
    expect(m1.body).toEqual({
      id: expect.stringMatching(/^msg_/),
      mission_id: p.missionId,
      submission_id: p.submissionId,
      from: p.solver.address,
      to: p.creator.address,
      body: cipher,
      created_at: t.clock.now().toISOString(),
      read_at: null,
    });
    t.clock.advance(1000);
    const m2 = await send(p, p.creator, { body: "thanks, reading it" });
    expect(m2.body).toMatchObject({ from: p.creator.address, to: p.solver.address });

    const inbox = await get("/messages/inbox", p.creator);
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.headers.get("cache-control")).toBe("private, no-store");
    expect(inbox.body).toEqual({ messages: [m1.body], unread_count: 1, next_cursor: null });
    expect((await get("/messages/sent", p.creator)).body).toEqual({ messages: [m2.body], next_cursor: null });
    expect((await get("/api/messages/inbox", p.solver)).body.messages).toEqual([m2.body]);
    const th = await get(`/missions/${p.missionId}/submissions/${p.submissionId}/messages`, p.solver);
    expect(th.headers.get("cache-control")).toBe("private, no-store");
    expect(th.body.messages.map((m: { id: string }) => m.id)).toEqual([m1.body.id, m2.body.id]);
    expect((await get(`/messages/${m1.body.id}`, p.solver)).body).toEqual(m1.body);

    // Reading does not mark; the recipient marks once; again keeps the first read_at.
    t.clock.advance(1000);
    const read = await t.call("POST", `/messages/${m1.body.id}/read`, { token: p.creator.token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.read_at).toBe(t.clock.now().toISOString());
    t.clock.advance(1000);
    expect((await t.call("POST", `/messages/${m1.body.id}/read`, { token: p.creator.token })).body.read_at).toBe(
      read.body.read_at,
    );
    const after = (await get("/messages/inbox", p.creator)).body;
    expect(after.unread_count).toBe(0);
    expect((await get("/messages/inbox?unread=true", p.creator)).body.messages).toEqual([]);
    expect((await get("/messages/inbox?unread=false", p.creator)).body.messages).toHaveLength(1);
    // The sender sees the read mark on its sent copy.
    expect((await get("/messages/sent", p.solver)).body.messages[0].read_at).toBe(read.body.read_at);
    const bySender = await t.call("POST", `/messages/${m1.body.id}/read`, { token: p.solver.token });
    expectError(bySender, 403, "FORBIDDEN");
    expect(bySender.body.details.reason).toBe("not_recipient");

    // Never in the public outbox: no event carries the body.
    const evs = await t.db.database.db.select().from(webhookEvents).where(eq(webhookEvents.missionId, p.missionId));
    expect(evs.some((e) => e.data.includes("PGP") || e.data.includes("thanks, reading"))).toBe(false);
  });

  it("pages newest first with a cursor, filters by submission, and caps the thread", async () => {
    const p = await thread();
    const other = await thread();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await send(p, p.solver, { body: `note ${i}` })).body.id);
      t.clock.advance(10);
    }
    await send({ missionId: other.missionId, submissionId: other.submissionId }, other.solver, { body: "elsewhere" });
    const full = await send(p, p.creator, { body: "one too many" });
    expectError(full, 409, "CONFLICT");
    expect(full.body.details).toMatchObject({ reason: "thread_full", limit: 5 });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await get(`/messages/sent?limit=2${cursor ? `&cursor=${cursor}` : ""}`, p.solver)).body;
      seen.push(...page.messages.map((m: { id: string }) => m.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const inbox = (await get(`/messages/inbox?submission_id=${p.submissionId}&limit=100`, p.creator)).body;
    expect(inbox.messages).toHaveLength(5);
    expect(inbox.unread_count).toBe(5);
    expect((await get(`/messages/inbox?mission_id=${other.missionId}`, p.creator)).body.messages).toEqual([]);
    const th: any = (await get(`/missions/${p.missionId}/submissions/${p.submissionId}/messages?limit=3`, p.creator))
      .body;
    expect(th.messages.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 3));
    const rest = (
      await get(`/missions/${p.missionId}/submissions/${p.submissionId}/messages?cursor=${th.next_cursor}`, p.creator)
    ).body;
    expect(rest).toMatchObject({ next_cursor: null });
    expect(rest.messages.map((m: { id: string }) => m.id)).toEqual(ids.slice(3));
  });
});

describe("concurrency (real Postgres)", () => {
  it.runIf(onRealPostgres)("both parties writing at once never pass the thread cap", async () => {
    const p = await thread();
    // Straight to the verb (no HTTP middleware between the calls), so the transactions overlap.
    const rs = await Promise.allSettled(
      Array.from({ length: 24 }, (_, i) =>
        sendMessage(ctxForViewer(t.deps, (i % 2 ? p.creator : p.solver).address), { ...p, body: `m${i}` }),
      ),
    );
    expect(rs.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of rs)
      if (r.status === "rejected") expect((r.reason as AppError).details?.reason, String(r.reason)).toBe("thread_full");
    const th = await get(`/missions/${p.missionId}/submissions/${p.submissionId}/messages`, p.creator);
    expect(th.body.messages).toHaveLength(5);
  });
});

describe("bad input", () => {
  it("size in bytes, empty or non-string bodies, malformed ids and cursors, limits", async () => {
    const p = await thread();
    // Three-byte characters: over the byte cap with a third as many characters.
    const chars = Math.floor(MESSAGE_MAX_BYTES / 3) + 1;
    const big = await send(p, p.solver, { body: "€".repeat(chars) });
    expectError(big, 413, "PAYLOAD_TOO_LARGE");
    expect(big.body.details).toMatchObject({
      reason: "message_too_large",
      max_bytes: MESSAGE_MAX_BYTES,
      bytes: 3 * chars,
    });
    expect((await send(p, p.solver, { body: "€".repeat(85) })).status).toBe(201);
    expectError(await send(p, p.solver, { body: "" }), 400, "INVALID_PARAMETER");
    expectError(await send(p, p.solver, { body: { encrypted: true } }), 400, "INVALID_PARAMETER");
    expectError(await send(p, p.solver, {}), 400, "INVALID_PARAMETER");
    expectError(await send(p, p.solver, { body: "a\u0000b" }), 400, "INVALID_PARAMETER");
    expectError(
      await send({ ...p, submissionId: "sub_01JZ0000000000000000000000" }, p.solver, { body: "x" }),
      404,
      "NOT_FOUND",
    );
    expectError(await send({ ...p, submissionId: "garbage" }, p.solver, { body: "x" }), 404, "NOT_FOUND");
    expectError(
      await send({ ...p, missionId: "mis_01JZ0000000000000000000000" }, p.solver, { body: "x" }),
      404,
      "NOT_FOUND",
    );
    // A submission of another mission is not found under this one.
    const other = await thread();
    expectError(await send({ ...p, submissionId: other.submissionId }, p.solver, { body: "x" }), 404, "NOT_FOUND");
    expectError(await get("/messages/inbox?cursor=bm90LWFuLWlk", p.solver), 400, "INVALID_PARAMETER");
    expectError(await get("/messages/inbox?limit=0", p.solver), 400, "INVALID_PARAMETER");
    expectError(await get("/messages/sent?limit=101", p.solver), 400, "INVALID_PARAMETER");
    expectError(await get("/messages/msg_01JZ0000000000000000000000", p.solver), 404, "NOT_FOUND");
    expectError(await get("/messages/nope", p.solver), 404, "NOT_FOUND");
    expectError(await t.call("POST", "/messages/nope/read", { token: p.solver.token }), 404, "NOT_FOUND");
  });
});

describe("authorization: only the two parties", () => {
  it("another agent, anonymous, the admin token, the creator's own submission", async () => {
    const p = await thread();
    const m = (await send(p, p.solver, { body: "private" })).body;
    const stranger = await signIn(t);

    const s = await send(p, stranger, { body: "let me in" });
    expectError(s, 403, "FORBIDDEN");
    expect(s.body.details.reason).toBe("not_a_party");
    const th = await get(`/missions/${p.missionId}/submissions/${p.submissionId}/messages`, stranger);
    expectError(th, 403, "FORBIDDEN");
    expect(th.text).not.toContain("private");
    expectError(await get(`/messages/${m.id}`, stranger), 404, "NOT_FOUND");
    expectError(await t.call("POST", `/messages/${m.id}/read`, { token: stranger.token }), 404, "NOT_FOUND");
    expect((await get("/messages/inbox", stranger)).body).toEqual({ messages: [], unread_count: 0, next_cursor: null });
    expect((await get("/messages/sent", stranger)).body).toEqual({ messages: [], next_cursor: null });

    for (const r of [
      await send(p, undefined, { body: "anon" }),
      await send(p, undefined, { body: 42 }), // 401 before validation
      await get(`/missions/${p.missionId}/submissions/${p.submissionId}/messages`),
      await get("/messages/inbox"),
      await get("/messages/sent"),
      await get(`/messages/${m.id}`),
      await t.call("POST", `/messages/${m.id}/read`),
      await t.call("GET", "/messages/inbox", { headers: { "x-api-key": "not-bound-to-anyone" } }),
    ])
      expectError(r, 401, "UNAUTHORIZED");
    expectError(await t.call("GET", "/messages/inbox", { token: ADMIN_TOKEN }), 403, "FORBIDDEN");
    expectError(await t.call("GET", `/messages/${m.id}`, { token: ADMIN_TOKEN }), 403, "FORBIDDEN");

    // The creator's own submission (stored rejected) has nobody on the other side.
    const own = await t.call("POST", `/missions/${p.missionId}/submissions`, {
      token: p.creator.token,
      body: { content: "mine" },
    });
    expect(own.status, own.text).toBeLessThan(300);
    const r = await send({ ...p, submissionId: own.body.id }, p.creator, { body: "to myself" });
    expectError(r, 403, "FORBIDDEN");
    expect(r.body.details.reason).toBe("own_submission");
    // Nothing leaked into the stranger's view, and the recipient's message is untouched.
    expect((await get(`/messages/${m.id}`, p.creator)).body).toEqual(m);
  });
});
