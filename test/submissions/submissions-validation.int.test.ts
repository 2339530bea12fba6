import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// POST /missions/{id}/submissions (AIP-1 §3): every bad input gets its code and the mission's
// submission_count does not move; accepted answers always carry status, reason and next_action.

const t = useTestApp();

const sha = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");
const DAY = 86_400_000;

async function count(app: TestApp, missionId: string): Promise<number> {
  const r = await app.call("GET", `/missions/${missionId}`);
  expect(r.status).toBe(200);
  return r.body.submission_count;
}

/** An open mission, a signed-in solver, and a submit() that asserts nothing moved on rejection. */
async function setup(app: TestApp = t) {
  const { creator, mission } = await openMission(app);
  const solver = await signIn(app);
  const submit = (body: unknown, opts: { token?: string; path?: string } = {}) =>
    app.call("POST", opts.path ?? `/missions/${mission.id}/submissions`, { token: opts.token ?? solver.token, body });
  const rejected = async (body: unknown, status: number, code: string, opts: { token?: string } = {}) => {
    const before = await count(app, mission.id);
    const r = await submit(body, opts);
    expectError(r, status, code);
    expect(await count(app, mission.id)).toBe(before);
    return r;
  };
  return { creator, mission, solver, submit, rejected };
}

function expectPending(r: Awaited<ReturnType<TestApp["call"]>>) {
  expect(r.status, r.text).toBe(201);
  expect(r.body).toMatchObject({
    status: "pending",
    reason: expect.any(String),
    next_action: expect.stringMatching(/\S/),
    submission_id: expect.stringMatching(/^sub_/),
  });
  expect(r.body.reason.length).toBeGreaterThan(0);
}

describe("POST /missions/{id}/submissions rejects bad input without counting it", () => {
  it("AIP-3 §3.1: self-submission answers 200, stored rejected with self_submission: true", async () => {
    const s = await setup();
    const r = await s.submit({ content: "mine" }, { token: s.creator.token });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      status: "rejected",
      reason: "self_submission",
      self_submission: true,
      next_action: "none",
    });
  });

  it("an unknown mission → 404 NOT_FOUND", async () => {
    const s = await setup();
    expectError(
      await s.submit({ content: "x" }, { path: "/missions/mis_01JZ0000000000000000000000/submissions" }),
      404,
      "NOT_FOUND",
    );
    expectError(await s.submit({ content: "x" }, { path: "/missions/garbage/submissions" }), 404, "NOT_FOUND");
  });

  it("after the deadline → 409 MISSION_NOT_OPEN", async () => {
    const s = await setup();
    t.clock.advance(7 * DAY); // exactly at the deadline: closed
    const late = await signIn(t); // the 24 h session of s.solver has expired by now
    await s.rejected({ content: "late" }, 409, "MISSION_NOT_OPEN", { token: late.token });
    t.clock.advance(1000);
    await s.rejected({ content: "later" }, 409, "MISSION_NOT_OPEN", { token: late.token });
  });

  it("a voided mission → 409 MISSION_NOT_OPEN", async () => {
    const s = await setup();
    expect((await t.call("POST", `/missions/${s.mission.id}/void`, { token: s.creator.token })).status).toBe(200);
    await s.rejected({ content: "too late" }, 409, "MISSION_NOT_OPEN");
  });

  it.each([
    ["neither content nor content_uri", {}],
    ["only a content_hash", { content_hash: "0x" + "ab".repeat(32) }],
    [
      "both content and content_uri",
      { content: "a", content_uri: "https://example.com/a.txt", content_hash: "0x" + "ab".repeat(32) },
    ],
    ["ftp: content_uri", { content_uri: "ftp://example.com/a.txt", content_hash: "0x" + "ab".repeat(32) }],
    ["javascript: content_uri", { content_uri: "javascript:alert(1)", content_hash: "0x" + "ab".repeat(32) }],
    ["not a URI", { content_uri: "just words", content_hash: "0x" + "ab".repeat(32) }],
    ["remote https without content_hash", { content_uri: "https://example.com/a.txt" }],
    [
      "ipfs without content_hash",
      { content_uri: "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi" },
    ],
    ["a short content_hash", { content_uri: "https://example.com/a.txt", content_hash: "0x1234" }],
    ["a non-hex content_hash", { content_uri: "https://example.com/a.txt", content_hash: "zz".repeat(32) }],
    ["an md5: content_hash", { content_uri: "https://example.com/a.txt", content_hash: "md5:" + "ab".repeat(32) }],
    ["a numeric content", { content: 42 }],
    ["an empty content", { content: "" }],
  ])("%s → 400 INVALID_PARAMETER", async (_n, body) => {
    const s = await setup();
    await s.rejected(body, 400, "INVALID_PARAMETER");
  });

  it("inline content with a wrong content_hash → 422 content_hash_mismatch", async () => {
    const s = await setup();
    const r = await s.rejected({ content: "answer", content_hash: "0x" + sha("other") }, 422, "UNPROCESSABLE");
    expect(r.body.details).toMatchObject({ reason: "content_hash_mismatch", actual_hash: `sha256:${sha("answer")}` });
  });

  it("a data: URI whose bytes do not match content_hash → 422 content_hash_mismatch", async () => {
    const s = await setup();
    const uri = `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`;
    const r = await s.rejected({ content_uri: uri, content_hash: sha("bye") }, 422, "UNPROCESSABLE");
    expect(r.body.details.reason).toBe("content_hash_mismatch");
    const ok = await s.submit({ content_uri: uri, content_hash: `sha256:${sha("hello")}` });
    expectPending(ok);
    expect(ok.body.content_hash).toBe(`0x${sha("hello")}`); // AIP-1 §3 wire form
  });

  it("the same content twice by the same agent → 409 CONFLICT; another agent may send it", async () => {
    const s = await setup();
    expectPending(await s.submit({ content: "dup" }));
    const r = await s.rejected({ content: "dup" }, 409, "CONFLICT");
    expect(r.body.details.reason).toBe("duplicate_submission");
    // the same bytes by reference count as the same content
    await s.rejected({ content_uri: "https://example.com/dup.txt", content_hash: sha("dup") }, 409, "CONFLICT");
    const other = await signIn(t);
    expectPending(await s.submit({ content: "dup" }, { token: other.token }));
    expect(await count(t, s.mission.id)).toBe(2);
  });

  it("anonymous → 403 ANONYMOUS_SUBMISSION_REJECTED, nothing counted", async () => {
    const s = await setup();
    const r = await t.call("POST", `/missions/${s.mission.id}/submissions`, { body: { content: "anon" } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
    expect(await count(t, s.mission.id)).toBe(0);
  });
});

describe("accepted submissions", () => {
  // AIP-1 §3: "content_hash": "0x... (sha256 of content_uri target)" — all three input forms are
  // accepted, and the wire always answers the §3 0x form (receipts keep sha256:<hex>, §6.1).
  it("content_hash in its three forms is accepted and served in the §3 0x<lowercase hex> form", async () => {
    const s = await setup();
    const forms = [(h: string) => "0x" + h.toUpperCase(), (h: string) => h.toUpperCase(), (h: string) => "sha256:" + h];
    for (const [i, form] of forms.entries()) {
      const inline = await s.submit({ content: `inline ${i}`, content_hash: form(sha(`inline ${i}`)) });
      expectPending(inline);
      expect(inline.body.content_hash).toBe(`0x${sha(`inline ${i}`)}`);
      const h = sha(`remote ${i}`);
      const remote = await s.submit({ content_uri: `https://example.com/r${i}.txt`, content_hash: form(h) });
      expectPending(remote);
      expect(remote.body.content_hash).toBe(`0x${h}`);
      expect(remote.body.content_uri).toBe(`https://example.com/r${i}.txt`);
    }
    const list = await t.call("GET", `/missions/${s.mission.id}/submissions`, { token: s.solver.token });
    expect(list.body.submissions.map((x: { content_hash: string }) => x.content_hash)).toEqual(
      [0, 1, 2].flatMap((i) => [`0x${sha(`inline ${i}`)}`, `0x${sha(`remote ${i}`)}`]),
    );
  });

  it("inline content becomes a data: URI with its derived hash; §3 fields are present", async () => {
    const s = await setup();
    const r = await s.submit({ content: "The key is 42.", metadata: { lang: "en" } });
    expectPending(r);
    expect(r.body).toMatchObject({
      mission_id: s.mission.id,
      submitter: s.solver.address,
      content_hash: `0x${sha("The key is 42.")}`,
      submitted_at: t.clock.now().toISOString(),
      metadata: { lang: "en" },
    });
    expect(r.body.id).toBe(r.body.submission_id);
    expect(Buffer.from(r.body.content_uri.split(",")[1], "base64").toString()).toBe("The key is 42.");
    expect(r.body.next_action).toContain(`/missions/${s.mission.id}/submissions/${r.body.id}`);
    expect(await count(t, s.mission.id)).toBe(1);
  });

  it("the answer shows the metadata as stored: the same object, in the same key order, as a later read", async () => {
    const s = await setup();
    const metadata = { zeta_long_key: 1, a: { y: 2, b: [3] }, mid_key: "x" };
    const r = await s.submit({ content: "metadata order", metadata });
    expectPending(r);
    const read = await t.call("GET", `/missions/${s.mission.id}/submissions/${r.body.id}`, { token: s.solver.token });
    expect(read.status).toBe(200);
    expect(r.body.metadata).toEqual(metadata);
    expect(JSON.stringify(r.body.metadata)).toBe(JSON.stringify(read.body.metadata));
  });

  it("the alias POST /missions/{id}/submit works (also under /api)", async () => {
    const s = await setup();
    expectPending(await s.submit({ content: "via alias" }, { path: `/missions/${s.mission.id}/submit` }));
    expectPending(await s.submit({ content: "via api alias" }, { path: `/api/missions/${s.mission.id}/submit` }));
    expect(await count(t, s.mission.id)).toBe(2);
  });

  it("list and single: content_uri is hidden from third parties while open, visible to submitter and creator", async () => {
    const s = await setup();
    const sub = (await s.submit({ content: "secret answer" })).body;
    const stranger = await signIn(t);
    const single = `/missions/${s.mission.id}/submissions/${sub.id}`;
    const listPath = `/missions/${s.mission.id}/submissions`;
    for (const [who, token, visible] of [
      ["anonymous", undefined, false],
      ["stranger", stranger.token, false],
      ["submitter", s.solver.token, true],
      ["creator", s.creator.token, true],
    ] as const) {
      const one = await t.call("GET", single, { token });
      expect(one.status, who).toBe(200);
      expect(one.body.content_uri, who).toBe(visible ? sub.content_uri : null);
      expect(one.body.content_hash, who).toBe(sub.content_hash);
      expect(one.body).toMatchObject({
        status: "pending",
        reason: expect.any(String),
        next_action: expect.any(String),
      });
      const all = await t.call("GET", listPath, { token });
      // Lists link an inline deliverable to its content route instead of inlining it (docs/abuse.md).
      const listed = sub.content_uri.startsWith("data:")
        ? `${t.deps.config.publicUrl}/missions/${s.mission.id}/submissions/${sub.id}/content`
        : sub.content_uri;
      expect(
        all.body.submissions.map((x: { id: string; content_uri: string | null }) => [x.id, x.content_uri]),
        who,
      ).toEqual([[sub.id, visible ? listed : null]]);
    }
    expectError(
      await t.call("GET", `/missions/${s.mission.id}/submissions/sub_01JZ0000000000000000000000`),
      404,
      "NOT_FOUND",
    );
    expectError(await t.call("GET", `/missions/${s.mission.id}/submissions/garbage`), 404, "NOT_FOUND");
    expectError(await t.call("GET", `/missions/garbage/submissions`), 404, "NOT_FOUND");
    expectError(await t.call("GET", `${listPath}?limit=0`), 400, "INVALID_PARAMETER");
    expectError(await t.call("GET", `${listPath}?cursor=garbage`), 400, "INVALID_PARAMETER");
  });
});

describe("OABP_MAX_SUBMISSIONS_PER_AGENT", () => {
  const capped = useTestApp({ OABP_MAX_SUBMISSIONS_PER_AGENT: "2" });

  it("the third submission by one agent → 409 CONFLICT; other agents are unaffected", async () => {
    const s = await setup(capped);
    expectPending(await s.submit({ content: "one" }));
    expectPending(await s.submit({ content: "two" }));
    const before = await count(capped, s.mission.id);
    const r = await s.submit({ content: "three" });
    expectError(r, 409, "CONFLICT");
    expect(r.body.details.reason).toBe("submission_limit");
    expect(await count(capped, s.mission.id)).toBe(before);
    const other = await signIn(capped);
    expectPending(await s.submit({ content: "three" }, { token: other.token }));
    expect(await count(capped, s.mission.id)).toBe(3);
  });
});
