import { describe, expect, it } from "vitest";
import { reviewSummary } from "../../src/features/reviews/reviews.service";
import { newAccount, openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// ClawFinder reviews (docs/design.md "Discovery (§7–§9) and neighbours"): after a mission resolves its
// creator reviews each winner and each winner the creator, once, never themselves; editable and
// deletable by the author only.

const t = useTestApp();

type Agent = Awaited<ReturnType<typeof signIn>>;

/** A creator_judges mission with `winners` awarded (equal shares) and `losers` not selected. */
async function resolvedMission(opts: { winners?: number; losers?: number } = {}) {
  const nWinners = opts.winners ?? 1;
  const { creator, mission } = await openMission(t, {
    verification: { type: "creator_judges", params: { max_winners: Math.max(nWinners, 1) } },
  });
  const submit = async () => {
    const a = await signIn(t);
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: a.token,
      body: { content: `answer from ${a.address}` },
    });
    expect(r.status, r.text).toBe(201);
    return { ...a, submissionId: r.body.id as string };
  };
  const winners = [];
  for (let i = 0; i < nWinners; i++) winners.push(await submit());
  const losers = [];
  for (let i = 0; i < (opts.losers ?? 0); i++) losers.push(await submit());
  const share = Math.floor(10_000 / nWinners);
  const award = await t.call("POST", `/missions/${mission.id}/award`, {
    token: creator.token,
    body: {
      winners: winners.map((w, i) => ({
        submission_id: w.submissionId,
        share_bps: i === 0 ? 10_000 - share * (nWinners - 1) : share,
      })),
    },
  });
  expect(award.status, award.text).toBe(200);
  expect(award.body.status).toBe("resolved");
  return { creator, winners, losers, missionId: mission.id as string };
}

const review = (author: Agent | undefined, subject: string, body: Record<string, unknown>, prefix = "") =>
  t.call("POST", `${prefix}/agents/${subject}/reviews`, { token: author?.token, body });
const list = (subject: string, query = "") => t.call("GET", `/agents/${subject}/reviews${query}`);

describe("POST /agents/{id}/reviews", () => {
  it("the creator reviews the winner and the winner the creator; both show on GET, also under /api", async () => {
    const {
      creator,
      winners: [w],
      missionId,
    } = await resolvedMission();
    const a = await review(creator, w!.address, { mission_id: missionId, stars: 5, text: "Fast and correct." });
    expect(a.status, a.text).toBe(201);
    expect(a.body).toEqual({
      id: expect.stringMatching(/^rev_[0-9A-Z]{26}$/),
      mission_id: missionId,
      reviewer: creator.address,
      reviewee: w!.address,
      reviewer_role: "creator",
      stars: 5,
      text: "Fast and correct.",
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    // mixed-case (checksummed) ids are the same agent; the /api mount answers the same
    const b = await review(w, creator.account.address, { mission_id: missionId, stars: 3 }, "/api");
    expect(b.status, b.text).toBe(201);
    expect(b.body).toMatchObject({
      reviewer: w!.address,
      reviewee: creator.address,
      reviewer_role: "winner",
      stars: 3,
      text: null,
    });

    const got = await list(w!.address);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      agent_id: w!.address,
      summary: { count: 1, average: 5 },
      reviews: [a.body],
      next_cursor: null,
    });
    expect((await t.call("GET", `/api/agents/${creator.address}/reviews`)).body.reviews).toEqual([b.body]);
    expect((await t.call("GET", `/agents/${creator.address}/reviews/${b.body.id}`)).body).toEqual(b.body);
    // a review is addressed under its reviewee only
    expectError(await t.call("GET", `/agents/${w!.address}/reviews/${b.body.id}`), 404, "NOT_FOUND");
  });

  it("the creator reviews each winner of a split award once; winners cannot review each other", async () => {
    const { creator, winners, missionId } = await resolvedMission({ winners: 2 });
    for (const w of winners)
      expect((await review(creator, w.address, { mission_id: missionId, stars: 4 })).status).toBe(201);
    const r = await review(winners[0], winners[1]!.address, { mission_id: missionId, stars: 1 });
    expectError(r, 403, "FORBIDDEN");
    expect(r.body.details.reason).toBe("not_counterparty");
  });

  it("a duplicate (same mission, author, subject) → 409 CONFLICT naming the existing review", async () => {
    const {
      creator,
      winners: [w],
      missionId,
    } = await resolvedMission();
    const first = await review(creator, w!.address, { mission_id: missionId, stars: 4 });
    expect(first.status).toBe(201);
    const dup = await review(creator, w!.address, { mission_id: missionId, stars: 1, text: "changed my mind" });
    expectError(dup, 409, "CONFLICT");
    expect(dup.body.details).toEqual({ reason: "already_reviewed", review_id: first.body.id });
    expect((await list(w!.address)).body.reviews).toEqual([first.body]);
  });

  it("concurrent duplicates: exactly one is stored (the unique index decides)", async () => {
    const {
      creator,
      winners: [w],
      missionId,
    } = await resolvedMission();
    const rs = await Promise.all(
      Array.from({ length: 5 }, (_, i) => review(creator, w!.address, { mission_id: missionId, stars: i + 1 })),
    );
    expect(rs.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await list(w!.address)).body.summary.count).toBe(1);
  });

  it("reviewing yourself → 403 self_review, whoever you are", async () => {
    const {
      creator,
      winners: [w],
      missionId,
    } = await resolvedMission();
    for (const a of [creator, w!]) {
      const r = await review(a, a.address, { mission_id: missionId, stars: 5 });
      expectError(r, 403, "FORBIDDEN");
      expect(r.body.details.reason).toBe("self_review");
    }
    expect((await list(creator.address)).body.summary).toEqual({ count: 0, average: null });
  });

  it("before resolution → 409 CONFLICT mission_not_resolved (open, and voided missions too)", async () => {
    const { creator, mission } = await openMission(t);
    const s = await signIn(t);
    expect(
      (await t.call("POST", `/missions/${mission.id}/submissions`, { token: s.token, body: { content: "early" } }))
        .status,
    ).toBe(201);
    for (const [author, subject] of [
      [creator, s.address],
      [s, creator.address],
    ] as const) {
      const r = await review(author, subject, { mission_id: mission.id, stars: 5 });
      expectError(r, 409, "CONFLICT");
      expect(r.body.details).toEqual({ reason: "mission_not_resolved", status: "open" });
    }
    const voided = await openMission(t);
    expect((await t.call("POST", `/missions/${voided.mission.id}/void`, { token: voided.creator.token })).status).toBe(
      200,
    );
    const r = await review(voided.creator, s.address, { mission_id: voided.mission.id, stars: 5 });
    expectError(r, 409, "CONFLICT");
    expect(r.body.details.status).toBe("voided");
  });

  it("a non-party → 403 not_a_party: a stranger, or a submitter who did not win", async () => {
    const {
      creator,
      winners: [w],
      losers: [loser],
      missionId,
    } = await resolvedMission({ losers: 1 });
    const stranger = await signIn(t);
    for (const [author, subject] of [
      [stranger, creator.address],
      [stranger, w!.address],
      [loser!, creator.address],
    ] as const) {
      const r = await review(author, subject, { mission_id: missionId, stars: 1 });
      expectError(r, 403, "FORBIDDEN");
      expect(r.body.details.reason).toBe("not_a_party");
    }
    // the creator may review winners only, not a submitter who lost
    const r = await review(creator, loser!.address, { mission_id: missionId, stars: 1 });
    expectError(r, 403, "FORBIDDEN");
    expect(r.body.details.reason).toBe("not_counterparty");
    expect((await list(creator.address)).body.summary.count).toBe(0);
    expect((await list(loser!.address)).body.summary.count).toBe(0);
  });

  it("stars must be an integer 1–5 and text at most 2000 characters (400, nothing stored)", async () => {
    const {
      creator,
      winners: [w],
      missionId,
    } = await resolvedMission();
    for (const body of [
      { stars: 0 },
      { stars: 6 },
      { stars: 4.5 },
      { stars: "5" },
      { stars: null },
      {},
      { stars: 3, text: "x".repeat(2001) },
      { stars: 3, text: 42 },
    ]) {
      expectError(await review(creator, w!.address, { mission_id: missionId, ...body }), 400, "INVALID_PARAMETER");
    }
    expect((await list(w!.address)).body.summary.count).toBe(0);
    const ok = await review(creator, w!.address, { mission_id: missionId, stars: 1, text: "y".repeat(2000) });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.text).toHaveLength(2000);
    const back = await review(w, creator.address, { mission_id: missionId, stars: 5 });
    expect(back.status).toBe(201);
  });

  it("anonymous → 401; a malformed agent id or mission_id → 400; an unknown mission → 404", async () => {
    const {
      creator,
      winners: [w],
      missionId,
    } = await resolvedMission();
    expectError(await review(undefined, w!.address, { mission_id: missionId, stars: 5 }), 401, "UNAUTHORIZED");
    expectError(await review(creator, "0x1234", { mission_id: missionId, stars: 5 }), 400, "INVALID_PARAMETER");
    expectError(await review(creator, w!.address, { mission_id: "not-a-mission", stars: 5 }), 400, "INVALID_PARAMETER");
    expectError(
      await review(creator, w!.address, { mission_id: "mis_01JZ0000000000000000000000", stars: 5 }),
      404,
      "NOT_FOUND",
    );
    expectError(await list("0xnope"), 400, "INVALID_PARAMETER");
  });
});

describe("PUT and DELETE /agents/{id}/reviews/{review_id}", () => {
  it("only the author edits: others (the reviewee, a stranger) → 403 and the review is unchanged", async () => {
    const {
      creator,
      winners: [w],
      missionId,
    } = await resolvedMission();
    const r = await review(creator, w!.address, { mission_id: missionId, stars: 2, text: "late" });
    const path = `/agents/${w!.address}/reviews/${r.body.id}`;
    const stranger = await signIn(t);
    for (const other of [w!, stranger]) {
      const denied = await t.call("PUT", path, { token: other.token, body: { stars: 5 } });
      expectError(denied, 403, "FORBIDDEN");
      expect(denied.body.details.reason).toBe("not_author");
    }
    expectError(await t.call("PUT", path, { body: { stars: 5 } }), 401, "UNAUTHORIZED");
    expect((await t.call("GET", path)).body).toEqual(r.body);

    t.clock.advance(60_000);
    const edited = await t.call("PUT", path, { token: creator.token, body: { stars: 4 } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toEqual({ ...r.body, stars: 4, updated_at: t.clock.now().toISOString() });
    const cleared = await t.call("PUT", `/api${path}`, { token: creator.token, body: { text: null } });
    expect(cleared.body).toMatchObject({ stars: 4, text: null, created_at: r.body.created_at });
    for (const body of [{}, { stars: 0 }, { text: "z".repeat(2001) }]) {
      expectError(await t.call("PUT", path, { token: creator.token, body }), 400, "INVALID_PARAMETER");
    }
    expectError(
      await t.call("PUT", `/agents/${w!.address}/reviews/rev_01JZ0000000000000000000000`, {
        token: creator.token,
        body: { stars: 1 },
      }),
      404,
      "NOT_FOUND",
    );
    expect((await t.call("GET", path)).body).toEqual(cleared.body);
  });

  it("only the author deletes (204); the pair may then review afresh", async () => {
    const {
      creator,
      winners: [w],
      missionId,
    } = await resolvedMission();
    const r = await review(w, creator.address, { mission_id: missionId, stars: 1 });
    const path = `/agents/${creator.address}/reviews/${r.body.id}`;
    expectError(await t.call("DELETE", path, { token: creator.token }), 403, "FORBIDDEN");
    expectError(await t.call("DELETE", path), 401, "UNAUTHORIZED");
    expect((await t.call("GET", path)).status).toBe(200);
    const del = await t.call("DELETE", path, { token: w!.token });
    expect(del.status, del.text).toBe(204);
    expect(del.text).toBe("");
    expectError(await t.call("GET", path), 404, "NOT_FOUND");
    expectError(await t.call("DELETE", path, { token: w!.token }), 404, "NOT_FOUND");
    expect((await list(creator.address)).body.summary).toEqual({ count: 0, average: null });
    expect((await review(w, creator.address, { mission_id: missionId, stars: 4 })).status).toBe(201);
  });
});

describe("GET /agents/{id}/reviews", () => {
  it("summary {count, average} over all reviews; pages newest first by cursor; reviewSummary agrees", async () => {
    const subject = await signIn(t); // reviewed as the winner of three missions
    const stars = [5, 4, 4];
    const ids: string[] = [];
    for (const s of stars) {
      const { creator, mission } = await openMission(t);
      const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: subject.token,
        body: { content: `work for ${mission.id}` },
      });
      await t.call("POST", `/missions/${mission.id}/award`, {
        token: creator.token,
        body: { winners: [{ submission_id: sub.body.id }] },
      });
      t.clock.advance(1000);
      const r = await review(creator, subject.address, { mission_id: mission.id, stars: s });
      expect(r.status, r.text).toBe(201);
      ids.push(r.body.id);
    }
    const first = await list(subject.address, "?limit=2");
    expect(first.body.summary).toEqual({ count: 3, average: 4.33 });
    expect(first.body.reviews.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await list(subject.address, `?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.reviews.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
    expect(second.body.next_cursor).toBeNull();
    expect(second.body.summary).toEqual(first.body.summary);
    expect(await reviewSummary(t.deps.database.db, subject.address)).toEqual({ count: 3, average: 4.33 });

    expectError(await list(subject.address, "?cursor=bm9wZQ"), 400, "INVALID_PARAMETER");
    expectError(await list(subject.address, "?limit=0"), 400, "INVALID_PARAMETER");
    // any well-formed address has a (possibly empty) review list
    const nobody = newAccount().address;
    expect((await list(nobody)).body).toEqual({
      agent_id: nobody.toLowerCase(),
      summary: { count: 0, average: null },
      reviews: [],
      next_cursor: null,
    });
    expect(await reviewSummary(t.deps.database.db, nobody.toLowerCase())).toEqual({ count: 0, average: null });
  });
});
