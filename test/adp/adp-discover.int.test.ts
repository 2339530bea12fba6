import { describe, expect, it } from "vitest";
import { makeTestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { ADVERTISE, DISCOVER, cardFor } from "./adp-cards";
import { useTestApp } from "../helpers/suite-app";
import { acceptedSubmission, awardedTo } from "../helpers/mission-flow";

// ADP (draft-song-anp-adp-00) over HTTP, discovery: adp.discover and the two ranking lists (the
// cards themselves: adp.int.test.ts).

describe("adp.discover and the ranking lists", () => {
  // A database of its own: rankings are over every card, so no other test's cards may compete.
  const t = useTestApp();

  it("ranks advertised agents with the five factors; revoked and overloaded agents are left out", async () => {
    const translator = await signIn(t);
    const pythonista = await signIn(t);
    const busy = await signIn(t);
    const gone = await signIn(t);
    const put = async (who: { address: string; token: string }, over: Record<string, unknown>) => {
      const r = await t.call("POST", ADVERTISE, { token: who.token, body: cardFor(who.address, undefined, 1, over) });
      expect(r.status, r.text).toBe(200);
    };
    await put(translator, { skills: ["nlp/translation/zh"], description: "Chinese legal translation" });
    await put(pythonista, { skills: ["py", "coding/debugging"], description: "Python debugging" });
    await put(busy, {
      skills: ["nlp/translation"],
      description: "translation",
      constraints: { max_concurrent_tasks: 0 },
    });
    await put(gone, { skills: ["nlp/translation"], tools: [], endpoints: [] });
    // translator is online (a heartbeat now); the others were seen at sign-in, 10 minutes ago
    t.clock.advance(10 * 60_000);
    expect((await t.call("POST", `/agents/${translator.address}/heartbeat`, { token: translator.token })).status).toBe(
      200,
    );

    const r = await t.call("POST", DISCOVER, {
      body: { tags: ["nlp/*", "python"], query: "chinese legal translation", min_score: 0 },
    });
    expect(r.status, r.text).toBe(200);
    const ids = r.body.results.map((x: { agent_id: string }) => x.agent_id);
    expect(ids).not.toContain(busy.address);
    expect(ids).not.toContain(gone.address);
    const top = r.body.results[0];
    expect(top.agent_id).toBe(translator.address);
    // tags 1/2 (nlp/* prefix); text 3/3 (chinese, legal, translation); fresh agent 1400 + cold
    // start = 0.6; online; no reviews
    expect(top.factors).toEqual({ tags: 0.5, text: 1, reputation: 0.6, availability: 1, rating: 0 });
    expect(top.score).toBe(0.67); // 0.30·0.5 + 0.25·1 + 0.20·0.6 + 0.15·1
    expect(top.matched_tags).toEqual(["nlp/translation/zh"]);
    expect(top.tag_matches).toEqual([{ query: "nlp/*", rule: "prefix" }]);
    expect(top.agent_card.id).toBe(`agent://bot-${translator.address.slice(2, 10)}`);
    const py = r.body.results.find((x: { agent_id: string }) => x.agent_id === pythonista.address);
    expect(py.factors).toEqual({ tags: 0.5, text: 0, reputation: 0.6, availability: 0, rating: 0 });
    expect(py.matched_tags).toEqual(["py"]);
    expect(r.body.weights).toEqual({ tags: 0.3, text: 0.25, reputation: 0.2, availability: 0.15, rating: 0.1 });

    // the default min_score 0.1 and limit apply; an empty query is a 400
    const limited = await t.call("POST", DISCOVER, { body: { tags: ["nlp"], limit: 1 } });
    expect(limited.body.results.map((x: { agent_id: string }) => x.agent_id)).toEqual([translator.address]);
    expectError(await t.call("POST", DISCOVER, { body: { tags: ["/*"], query: "the of" } }), 400, "INVALID_PARAMETER");
    expectError(await t.call("POST", DISCOVER, { body: { limit: 500, tags: ["x"] } }), 400, "INVALID_PARAMETER");
  });

  it("active claims count as tasks in progress: an agent at max_concurrent_tasks is overloaded and left out", async () => {
    const worker = await signIn(t);
    const r0 = await t.call("POST", ADVERTISE, {
      token: worker.token,
      body: cardFor(worker.address, undefined, 1, {
        skills: ["cartography"],
        description: "map making",
        constraints: { max_concurrent_tasks: 1 },
      }),
    });
    expect(r0.status, r0.text).toBe(200);
    const found = async () =>
      (await t.call("POST", DISCOVER, { body: { tags: ["cartography"], min_score: 0 } })).body.results.map(
        (x: { agent_id: string }) => x.agent_id,
      );
    expect(await found()).toContain(worker.address);
    const { mission } = await openMission(t, { tags: ["maps"] });
    expect((await t.call("POST", `/missions/${mission.id}/claims`, { token: worker.token })).status).toBe(201);
    expect(await found()).not.toContain(worker.address); // 1 active claim = max_concurrent_tasks
    expect((await t.call("DELETE", `/missions/${mission.id}/claims`, { token: worker.token })).status).toBe(204);
    expect(await found()).toContain(worker.address);
  });

  it("GET /missions/{id}/candidates ranks advertised agents for a mission, creator excluded", async () => {
    const { creator, mission } = await openMission(t, {
      title: "Translate a Chinese lease",
      description: "Legal translation of a lease into English.",
      tags: ["translation", "legal"],
    });
    await t.call("POST", ADVERTISE, {
      token: creator.token,
      body: cardFor(creator.address, undefined, 1, { skills: ["nlp/translation"] }),
    });
    const solver = await signIn(t);
    await t.call("POST", ADVERTISE, {
      token: solver.token,
      body: cardFor(solver.address, undefined, 1, {
        skills: ["translate", "legal"],
        description: "lease and contract translation",
      }),
    });
    const r = await t.call("GET", `/missions/${mission.id}/candidates?limit=100&min_score=0`);
    expect(r.status, r.text).toBe(200);
    const ids = r.body.candidates.map((c: { agent_id: string }) => c.agent_id);
    expect(ids).not.toContain(creator.address);
    const mine = r.body.candidates.find((c: { agent_id: string }) => c.agent_id === solver.address);
    expect(mine.factors.tags).toBe(1); // translation ≡ translate (alias), legal exact
    expect(mine.tag_matches).toEqual([
      { query: "nlp/translation", rule: "exact" },
      { query: "legal", rule: "exact" },
    ]);
    expect(ids[0]).toBe(solver.address);
    expect(mine.online).toBe(true);
    // same through /api; unknown mission 404
    expect(
      (await t.call("GET", `/api/missions/${mission.id}/candidates?min_score=0`)).body.candidates[0].agent_id,
    ).toBe(solver.address);
    expectError(await t.call("GET", "/missions/mis_01JZ0000000000000000000000/candidates"), 404, "NOT_FOUND");
  });

  it("GET /agents/{id}/recommended-missions ranks open missions with the same score as the candidates list", async () => {
    const { mission } = await openMission(t, {
      title: "OCR of scanned invoices",
      description: "Extract totals from scanned invoices.",
      tags: ["ocr", "invoices"],
    });
    await openMission(t, { title: "Write a poem", description: "About the sea.", tags: ["poetry"] });
    const solver = await signIn(t);
    await t.call("POST", ADVERTISE, {
      token: solver.token,
      body: cardFor(solver.address, undefined, 1, {
        skills: ["vision/ocr"],
        description: "OCR for invoices and receipts",
      }),
    });
    const r = await t.call("GET", `/agents/${solver.address}/recommended-missions?min_score=0.2`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.source).toBe("card");
    expect(r.body.missions.map((m: { mission_id: string }) => m.mission_id)).toEqual([mission.id]);
    const rec = r.body.missions[0];
    expect(rec.tag_matches).toEqual([{ query: "vision/ocr", rule: "exact" }]);
    const cand = (await t.call("GET", `/missions/${mission.id}/candidates?limit=100&min_score=0`)).body.candidates.find(
      (c: { agent_id: string }) => c.agent_id === solver.address,
    );
    expect(cand.score).toBe(rec.score);
    expect(cand.factors).toEqual(rec.factors);

    // without a card: the profile's capabilities
    const plain = await signIn(t);
    await t.call("PUT", `/agents/${plain.address}`, { token: plain.token, body: { capabilities: ["ocr"] } });
    const p = await t.call("GET", `/agents/${plain.address}/recommended-missions`);
    expect(p.body.source).toBe("profile");
    expect(p.body.missions.map((m: { mission_id: string }) => m.mission_id)).toContain(mission.id);
    // an unknown agent has nothing to match
    const none = await t.call("GET", "/agents/0x00000000000000000000000000000000000000ef/recommended-missions");
    expect(none.body).toMatchObject({ source: "none", missions: [] });
  });

  it("reputation comes from the (decayed) ELO rating, rating from reviews, availability from heartbeats", async () => {
    const { creator, mission } = await openMission(t, { verification: { type: "creator_judges", params: {} } });
    const w = await signIn(t);
    const sub = await acceptedSubmission(t, mission.id, w, "done");
    await awardedTo(t, mission.id, creator, sub.body.id);
    expect(
      (
        await t.call("POST", `/agents/${w.address}/reviews`, {
          token: creator.token,
          body: { mission_id: mission.id, stars: 4 },
        })
      ).status,
    ).toBe(201);
    // alone, 100 USDC (K = 64): 1400 + 64 · (1 − 0.5) = 1432, one completed mission (cold start)
    expect((await t.call("GET", `/agents/${w.address}`)).body).toMatchObject({ rating: 1432, missions_completed: 1 });
    await t.call("POST", ADVERTISE, {
      token: w.token,
      body: cardFor(w.address, undefined, 1, { skills: ["lang/esperanto"] }),
    });

    const find = async () => (await t.call("POST", DISCOVER, { body: { tags: ["lang/esperanto"] } })).body.results[0];
    const reputation = Math.round((1 / (1 + 10 ** ((1400 - 1432) / 400)) + 0.1) * 1e6) / 1e6;
    let r = await find();
    expect(r.agent_id).toBe(w.address);
    expect(r.factors).toEqual({ tags: 1, text: 0, reputation, availability: 1, rating: 0.75 }); // (4 − 1) / 4
    expect(r.score).toBe(Math.round((0.3 + 0.2 * reputation + 0.15 + 0.075) * 1e6) / 1e6);
    expect(r.cold_start).toBe(true);
    // 181 s without a heartbeat: offline; a heartbeat brings it back
    t.clock.advance(181_000);
    r = await find();
    expect([r.factors.availability, r.online]).toEqual([0, false]);
    await t.call("POST", `/agents/${w.address}/heartbeat`, { token: w.token });
    expect((await find()).factors.availability).toBe(1);
    // 7 days of grace + 3 full weeks idle: −6 by decay, read at request time
    t.clock.advance(28 * 86_400_000);
    await t.call("POST", `/agents/${w.address}/heartbeat`, { token: w.token });
    expect((await find()).factors.reputation).toBe(
      Math.round((1 / (1 + 10 ** ((1400 - 1426) / 400)) + 0.1) * 1e6) / 1e6,
    );
  });

  it("reads bounded candidate sets; a strong match among many fresher weak ones is still first", async () => {
    // 16 index entries per query, shared by its 3 terms (6 each); the 2 best pre-scored are ranked.
    const small = await makeTestApp({}, { limits: { adpTermBudget: 16, adpScoredCards: 2, adpCandidateCap: 10 } });
    try {
      const put = async (description: string) => {
        const a = await signIn(small);
        const body = cardFor(a.address, undefined, 1, { skills: ["audio/speech-to-text"], description });
        expect((await small.call("POST", ADVERTISE, { token: a.token, body })).status).toBe(200);
        small.clock.advance(1000);
        return a.address;
      };
      const strong = await put("Whisper transcripts with diarization");
      const weak: string[] = [];
      for (let i = 0; i < 30; i++) weak.push(await put("General help"));
      const query = { tags: ["stt"], query: "whisper diarization" };
      // The strong card is older than every weak one, so it is not among the skill path's freshest
      // 6; it is found through its words and pre-scored with its path matched exactly.
      const r = await small.call("POST", DISCOVER, { body: { ...query, limit: 1 } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.results.map((x: { agent_id: string }) => x.agent_id)).toEqual([strong]);
      expect(r.body.results[0].factors).toMatchObject({ tags: 1, text: 1 });
      // 31 cards match; a query sees the 6 freshest of the path and the strong card, no more.
      const all = await small.call("POST", DISCOVER, { body: { ...query, limit: 50, min_score: 0 } });
      const got = all.body.results.map((x: { agent_id: string }) => x.agent_id);
      expect(got[0]).toBe(strong);
      expect(new Set(got.slice(1))).toEqual(new Set(weak.slice(-6)));
      // Recommendations score at most ADP_CANDIDATE_CAP open missions, the newest first.
      const missions: string[] = [];
      for (let i = 0; i < 12; i++) missions.push((await openMission(small, { tags: ["stt"] })).mission.id);
      const rec = await small.call("GET", `/agents/${strong}/recommended-missions?limit=100&min_score=0`);
      expect(rec.status, rec.text).toBe(200);
      const recIds = rec.body.missions.map((m: { mission_id: string }) => m.mission_id);
      expect(new Set(recIds)).toEqual(new Set(missions.slice(2)));
    } finally {
      await small.close();
    }
  });
});
