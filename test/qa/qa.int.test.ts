import { describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { missions, webhookEvents } from "../../src/db/schema/index";
import { ADMIN_TOKEN } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { callTool, openSession } from "../helpers/mcp";
import { expectError } from "../helpers/errors";
import { QA_MAX_CHARS } from "../../src/features/qa/qa.service";
import { useTestApp } from "../helpers/suite-app";

// Mission Q&A: a public thread per mission; agents ask, the creator answers,
// pins and clarifies; events through the outbox name the claimers; caps and bad input.

const t = useTestApp(
  { OABP_SESSION_TTL_SECONDS: String(30 * 86_400) },
  { limits: { qaMaxPerAgent: 2, qaMaxPerMission: 4, qaCreatorReserve: 0 } },
);

const ask = (id: string, token: string | undefined, body: unknown = { body: "Which key file?" }) =>
  t.call("POST", `/missions/${id}/questions`, { token, body });
const answer = (id: string, qid: string, token: string | undefined, body: unknown) =>
  t.call("POST", `/missions/${id}/questions/${qid}/answer`, { token, body });
const clarify = (id: string, token: string | undefined, body: unknown) =>
  t.call("POST", `/missions/${id}/clarifications`, { token, body });
const thread = async (id: string, query = "") => (await t.call("GET", `/missions/${id}/questions${query}`)).body;
const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
const events = async (missionId: string) =>
  (
    await t.db.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.missionId, missionId))
      .orderBy(asc(webhookEvents.id))
  )
    .filter((e) => e.type.startsWith("question.") || e.type === "mission.clarified")
    .map((e) => ({ type: e.type, data: JSON.parse(e.data) }));

describe("the Q&A thread", () => {
  it("an agent asks, the creator answers and pins, clarifies; the thread, the mission and the events agree", async () => {
    const { creator, mission: m } = await openMission(t);
    const solver = await signIn(t);
    const claimer = await signIn(t);
    expect((await t.call("POST", `/missions/${m.id}/claims`, { token: claimer.token })).status).toBe(201);
    expect(m.qa).toEqual({
      count: 0,
      pinned_count: 0,
      questions_url: `http://oabp.test/api/missions/${m.id}/questions`,
    });

    const q = await ask(m.id, solver.token, { body: "  Which key file?  " });
    expect(q.status, q.text).toBe(201);
    expect(q.body).toEqual({
      id: expect.stringMatching(/^qst_/),
      mission_id: m.id,
      kind: "question",
      author: solver.address,
      body: "Which key file?",
      answer: null,
      pinned: false,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });

    t.clock.advance(60_000);
    const a = await answer(m.id, q.body.id, creator.token, { answer: "config/keys.toml", pinned: true });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({
      id: q.body.id,
      answer: { body: "config/keys.toml", answered_at: t.clock.now().toISOString() },
      pinned: true,
    });
    expectError(await answer(m.id, q.body.id, creator.token, { answer: "again" }), 409, "CONFLICT");

    const c = await clarify(m.id, creator.token, { body: "Submissions in English only." });
    expect(c.status, c.text).toBe(201);
    expect(c.body).toMatchObject({ kind: "clarification", author: creator.address, pinned: true, answer: null });
    const unpinned = await clarify(m.id, creator.token, { body: "Typo fixed in the title.", pinned: false });
    expect(unpinned.body.pinned).toBe(false);

    // Anyone reads the thread, oldest first; the mission document carries the counts.
    const all = await thread(m.id);
    expect(all).toMatchObject({ mission_id: m.id, count: 3, pinned_count: 2, next_cursor: null });
    expect(all.questions.map((x: { id: string }) => x.id)).toEqual([q.body.id, c.body.id, unpinned.body.id]);
    expect((await thread(m.id, "?pinned=true")).questions.map((x: { id: string }) => x.id)).toEqual([
      q.body.id,
      c.body.id,
    ]);
    expect((await thread(m.id, "?kind=question")).questions).toHaveLength(1);
    expect((await mission(m.id)).qa).toMatchObject({ count: 3, pinned_count: 2 });
    expect((await t.call("GET", `/api/missions/${m.id}/questions?limit=2`)).body.next_cursor).toEqual(
      expect.any(String),
    );

    // Events in commit order; answers and clarifications name the active claimers.
    const evs = await events(m.id);
    expect(evs.map((e) => e.type)).toEqual([
      "question.asked",
      "question.answered",
      "mission.clarified",
      "mission.clarified",
    ]);
    expect(evs[1]!.data).toMatchObject({
      mission_id: m.id,
      question_id: q.body.id,
      author: solver.address,
      body: "Which key file?",
      answer: "config/keys.toml",
      pinned: true,
      claimers: [claimer.address],
    });
    expect(evs[2]!.data).toMatchObject({
      kind: "clarification",
      body: "Submissions in English only.",
      claimers: [claimer.address],
    });
  });

  it("pages the thread with a cursor, never repeating or skipping an entry", async () => {
    const { creator, mission: m } = await openMission(t);
    const ids: string[] = [];
    // The fourth entry is a party's (a submitter's): others stop a third of the thread earlier.
    const party = await signIn(t);
    const sub = await t.call("POST", `/missions/${m.id}/submissions`, { token: party.token, body: { content: "x" } });
    expect(sub.status, sub.text).toBe(201);
    for (const who of [await signIn(t), party]) {
      for (let i = 0; i < 2; i++) ids.push((await ask(m.id, who.token, { body: `question ${i}` })).body.id);
    }
    expect(ids.every(Boolean)).toBe(true);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await thread(m.id, `?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.questions.map((x: { id: string }) => x.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expectError(await t.call("GET", `/missions/${m.id}/questions?cursor=bm90LWFuLWlk`), 400, "INVALID_PARAMETER");
    // The thread is full (QA_MAX_PER_MISSION = 4): a fifth entry, even the creator's, is refused.
    const full = await clarify(m.id, creator.token, { body: "one more" });
    expectError(full, 409, "CONFLICT");
    expect(full.body.details.reason).toBe("qa_full");
    const late = await ask(m.id, (await signIn(t)).token);
    expect(late.body.details?.reason).toBe("qa_full");
  });
});

describe("bounds and bad input", () => {
  it("caps questions per agent and mission, lengths, blank bodies, unknown ids", async () => {
    const { creator, mission: m } = await openMission(t);
    const solver = await signIn(t);
    expect((await ask(m.id, solver.token)).status).toBe(201);
    expect((await ask(m.id, solver.token)).status).toBe(201);
    const third = await ask(m.id, solver.token);
    expectError(third, 409, "CONFLICT");
    expect(third.body.details).toMatchObject({ reason: "question_limit", limit: 2 });

    const other = await signIn(t);
    const long = await ask(m.id, other.token, { body: "x".repeat(QA_MAX_CHARS + 1) });
    expectError(long, 400, "INVALID_PARAMETER");
    expect(long.body.details).toMatchObject({ reason: "too_long", max_chars: QA_MAX_CHARS });
    expectError(await ask(m.id, other.token, { body: "x".repeat(10_001) }), 400, "INVALID_PARAMETER");
    expectError(await ask(m.id, other.token, { body: "   " }), 400, "INVALID_PARAMETER");
    expectError(await ask(m.id, other.token, { body: 42 }), 400, "INVALID_PARAMETER");
    expectError(await ask(m.id, other.token, {}), 400, "INVALID_PARAMETER");
    expectError(await ask(m.id, other.token, { body: "nul \u0000 byte" }), 400, "INVALID_PARAMETER");
    expectError(await ask("mis_01JZ0000000000000000000000", other.token), 404, "NOT_FOUND");
    expectError(await ask("garbage", other.token), 404, "NOT_FOUND");
    expectError(await t.call("GET", "/missions/garbage/questions"), 404, "NOT_FOUND");
    expectError(await t.call("GET", `/missions/${m.id}/questions?limit=101`), 400, "INVALID_PARAMETER");
    expectError(await answer(m.id, "qst_01JZ0000000000000000000000", creator.token, { answer: "a" }), 404, "NOT_FOUND");
    expectError(await answer(m.id, "nope", creator.token, { answer: "a" }), 404, "NOT_FOUND");
    expectError(await answer(m.id, "nope", creator.token, { answer: "" }), 400, "INVALID_PARAMETER");
    // A clarification is not a question to answer.
    const c = await clarify(m.id, creator.token, { body: "note" });
    expectError(await answer(m.id, c.body.id, creator.token, { answer: "a" }), 404, "NOT_FOUND");
    expect((await thread(m.id)).count).toBe(3);
  });

  it("questions close at the deadline; answers and clarifications once the mission is decided", async () => {
    const { creator, mission: m } = await openMission(t);
    const solver = await signIn(t);
    const q = (await ask(m.id, solver.token)).body;
    t.clock.advance(8 * 86_400_000); // past the one-week deadline: no new questions, answers still
    expectError(await ask(m.id, (await signIn(t)).token), 409, "MISSION_NOT_OPEN");
    expect((await answer(m.id, q.id, creator.token, { answer: "late but fine" })).status).toBe(200);
    const { creator: c2, mission: m2 } = await openMission(t);
    const q2 = (await ask(m2.id, solver.token)).body;
    expect((await t.call("POST", `/missions/${m2.id}/void`, { token: c2.token })).status).toBe(200);
    expectError(await answer(m2.id, q2.id, c2.token, { answer: "too late" }), 409, "MISSION_NOT_OPEN");
    expectError(await clarify(m2.id, c2.token, { body: "too late" }), 409, "MISSION_NOT_OPEN");
    expect((await thread(m2.id)).questions).toHaveLength(1); // still readable
  });
});

describe("MCP tools", () => {
  it("ask_question and list_questions run the same verbs and answer the REST JSON", async () => {
    const { mission: m } = await openMission(t);
    const solver = await signIn(t);
    const anon = await openSession(t);
    const refused = await callTool(t, anon, "ask_question", { mission_id: m.id, body: "hi" });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0]!.text).error).toBe("UNAUTHORIZED");
    const session = await openSession(t, solver.token);
    const asked = await callTool(t, session, "ask_question", { mission_id: m.id, body: "Which file?" }, solver.token);
    expect(asked.isError, asked.content[0]!.text).toBe(false);
    expect(asked.structuredContent).toMatchObject({ kind: "question", author: solver.address, body: "Which file?" });
    const listed = await callTool(t, anon, "list_questions", { mission_id: m.id });
    const rest = await t.call("GET", `/missions/${m.id}/questions`);
    expect(listed.content[0]!.text).toBe(rest.text);
    expect(listed.structuredContent.questions.map((q: { id: string }) => q.id)).toEqual([asked.structuredContent.id]);
  });
});

describe("the mission page", () => {
  it("shows the thread, pinned first, with every user string escaped", async () => {
    const { creator, mission: m } = await openMission(t);
    const solver = await signIn(t);
    const q = (await ask(m.id, solver.token, { body: `<script>alert("q")</script> & more` })).body;
    await answer(m.id, q.id, creator.token, { answer: `<img src=x onerror=alert(1)>` });
    await clarify(m.id, creator.token, { body: "<b>English only</b>" });
    const r = await t.call("GET", `/m/${m.id}`, { headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.text).toContain("Questions and clarifications (2)");
    expect(r.text).not.toContain("<script>alert");
    expect(r.text).not.toContain("<img src=x");
    expect(r.text).not.toContain("<b>English only</b>");
    expect(r.text).toContain("&lt;script&gt;alert(&quot;q&quot;)&lt;/script&gt; &amp; more");
    expect(r.text).toContain("&lt;b&gt;English only&lt;/b&gt;");
    // The pinned clarification comes before the (unpinned) question.
    expect(r.text.indexOf("English only")).toBeLessThan(r.text.indexOf("alert(&quot;q&quot;)"));
  });
});

describe("concurrency (real Postgres)", () => {
  it.runIf(onRealPostgres)("one agent's simultaneous questions never pass the per-agent cap", async () => {
    const { mission: m } = await openMission(t);
    const solver = await signIn(t);
    const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(m.id, solver.token, { body: `q${i}` })));
    expect(rs.filter((r) => r.status === 201)).toHaveLength(2);
    for (const r of rs.filter((x) => x.status !== 201)) expect(r.body.details?.reason, r.text).toBe("question_limit");
    expect((await mission(m.id)).qa.count).toBe(2);
    expect((await thread(m.id)).questions).toHaveLength(2);
  });
});

describe("authorization", () => {
  it("anonymous: reads yes, writes 401; another agent cannot answer or clarify; the creator cannot ask; the admin token is no agent", async () => {
    const { creator, mission: m } = await openMission(t);
    const solver = await signIn(t);
    const stranger = await signIn(t);
    const q = (await ask(m.id, solver.token)).body;

    expect((await t.call("GET", `/missions/${m.id}/questions`)).status).toBe(200);
    expectError(await ask(m.id, undefined), 401, "UNAUTHORIZED");
    expectError(await answer(m.id, q.id, undefined, { answer: "a" }), 401, "UNAUTHORIZED");
    expectError(await clarify(m.id, undefined, { body: "c" }), 401, "UNAUTHORIZED");

    for (const token of [stranger.token, solver.token]) {
      const r = await answer(m.id, q.id, token, { answer: "I decide" });
      expectError(r, 403, "FORBIDDEN");
      expect(r.body.details.reason).toBe("not_creator");
      const c = await clarify(m.id, token, { body: "I clarify" });
      expectError(c, 403, "FORBIDDEN");
      expect(c.body.details.reason).toBe("not_creator");
    }
    const own = await ask(m.id, creator.token);
    expectError(own, 403, "FORBIDDEN");
    expect(own.body.details.reason).toBe("own_mission");
    expectError(await ask(m.id, ADMIN_TOKEN), 403, "FORBIDDEN");
    expect(await thread(m.id)).toMatchObject({ count: 1, pinned_count: 0 });
    expect((await thread(m.id)).questions[0].answer).toBeNull();
  });

  it("a pending_escrow mission's thread is as invisible as the mission", async () => {
    const { creator, mission: m } = await openMission(t);
    // Stands for a base-rail mission whose deposit is not confirmed yet (visible to its creator only).
    await t.db.database.db.update(missions).set({ status: "pending_escrow" }).where(eq(missions.id, m.id));
    expectError(await t.call("GET", `/missions/${m.id}/questions`), 404, "NOT_FOUND");
    expectError(await ask(m.id, (await signIn(t)).token), 404, "NOT_FOUND");
    expect((await t.call("GET", `/missions/${m.id}/questions`, { token: creator.token })).status).toBe(200);
  });
});
