import * as ed from "@noble/ed25519";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advertise } from "../../src/features/adp/adp.advertise";
import { ctxFor } from "../../src/lib/context";
import { cardSigningBytes, MAX_CARD_BYTES } from "../../src/features/adp/adp.card";
import { ed25519FromDidKey } from "../../src/features/adp/adp.didkey";
import { buildServerCard } from "../../src/features/adp/adp.server-card";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { ed25519Identity, signCard } from "../helpers/adp";
import { expectError } from "../helpers/errors";

// ADP (draft-song-anp-adp-00) over HTTP: the server's signed card, adp.describe / advertise /
// discover, and the two ranking lists. The round trip: advertise → describe → verify, stale seq
// refused, tampered card refused.

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t?.close());

const DESCRIBE = "/adp/adp.describe";
const ADVERTISE = "/adp/adp.advertise";
const DISCOVER = "/adp/adp.discover";

async function verifies(card: Record<string, unknown>): Promise<boolean> {
  const key = ed25519FromDidKey(card.did as string);
  if (!key || typeof card.signature !== "string") return false;
  return ed.verifyAsync(new Uint8Array(Buffer.from(card.signature, "base64url")), cardSigningBytes(card), key);
}

function cardFor(
  address: string,
  did: string | undefined,
  seq: number | undefined,
  over: Record<string, unknown> = {},
) {
  return {
    id: `agent://bot-${address.slice(2, 10)}`,
    name: `bot ${address.slice(2, 8)}`,
    description: "Chinese-English translation of legal contracts",
    version: "1.0.0",
    ...(did ? { did } : {}),
    skills: ["nlp/translation/zh", "python"],
    tools: [{ name: "translate", input_schema: { type: "object" }, idempotent: true }],
    endpoints: [{ protocol: "http+json", uri: "https://bot.example/v1", auth: "bearer" }],
    ...(seq !== undefined ? { seq } : {}),
    extensions: { oabp: { agent_id: address }, "x.vendor": { anything: [1, 2] } },
    ...over,
  };
}

describe("the server's own Agent Card", () => {
  it("is served at its own path, signed with the active receipt key as did:key, and verifies from the card alone", async () => {
    const r = await t.call("GET", "/.well-known/adp-agent-card.json");
    expect(r.status, r.text).toBe(200);
    const card = r.body;
    expect(card.id).toBe("agent://oabp.test");
    expect(card.name).toBe("OABP server");
    expect(card.seq).toBe(1);
    expect(await verifies(card)).toBe(true);
    // the did:key is the key published in the manifest under the card's key_id
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    const key = manifest.receipt_signing_keys.find((k: { key_id: string }) => k.key_id === card.extensions.oabp.key_id);
    expect(Buffer.from(ed25519FromDidKey(card.did)!).toString("base64url")).toBe(key.public_key);
    // tools are the MCP tools; endpoints http+json (ADP methods) and MCP; metadata ttl
    const { TOOLS } = await import("../../src/features/mcp/mcp.tools");
    expect(card.tools.map((x: { name: string }) => x.name)).toEqual(TOOLS.map((x) => x.name)); // the MCP endpoint's own list
    expect(card.tools.map((x: { name: string }) => x.name)).toContain("claim_mission");
    expect(card.tools.find((x: { name: string }) => x.name === "list_missions")).toMatchObject({
      input_schema: { type: "object" },
      streaming: false,
      idempotent: true,
    });
    expect(card.endpoints.map((e: { protocol: string; uri: string }) => [e.protocol, e.uri])).toEqual([
      ["http+json", "http://oabp.test/adp"],
      ["http+json", "http://oabp.test/adp"],
      ["mcp", "http://oabp.test/mcp"],
    ]);
    expect(card.metadata.ttl).toBe(3600);
    // a single altered byte breaks it
    expect(await verifies({ ...card, version: "9.9.9" })).toBe(false);
  });

  it("adp.describe with no body answers the same card; fields give a subset without signature", async () => {
    const full = (await t.call("GET", "/.well-known/adp-agent-card.json")).body;
    const r = await t.call("POST", DESCRIBE);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual(full);
    expect((await t.call("POST", `/api${DESCRIBE}`, { body: {} })).body).toEqual(full);
    const part = await t.call("POST", DESCRIBE, { body: { fields: ["skills", "seq"] } });
    expect(part.body).toEqual({ id: full.id, name: full.name, skills: full.skills, seq: full.seq });
    const all = await t.call("POST", DESCRIBE, { body: { fields: Object.keys(full) } });
    expect(all.body).toEqual(full);
  });

  it("seq moves only when the content changes, also across instances on one database", async () => {
    const first = (await t.call("GET", "/.well-known/adp-agent-card.json")).body;
    // same keyring and config: same content, same seq
    const again = await buildServerCard({ ...t.deps });
    expect(again.seq).toBe(first.seq);
    // another instance (its own receipt key) on the same database: new content, seq + 1
    const other = await makeTestApp({}, { database: t.db, ownReceiptKey: true });
    const card = (await other.call("GET", "/.well-known/adp-agent-card.json")).body;
    expect(card.seq).toBe(first.seq + 1);
    expect(await verifies(card)).toBe(true);
    await other.close();
  });
});

describe("adp.advertise → adp.describe → verify", () => {
  it("a signed card round-trips byte for byte and verifies; stale seq and tampering are refused", async () => {
    const a = await signIn(t);
    const key = ed25519Identity();
    const v1 = signCard(cardFor(a.address, key.did, 1), key.privateKey);
    const stored = await t.call("POST", ADVERTISE, { token: a.token, body: v1 });
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body).toEqual({
      stored: true,
      agent_id: a.address,
      card_id: v1.id,
      seq: 1,
      signed: true,
      revoked: false,
      unchanged: false,
    });

    const described = await t.call("POST", DESCRIBE, { body: { agent_id: a.account.address } });
    expect(described.status, described.text).toBe(200);
    expect(described.body).toEqual(v1);
    expect(await verifies(described.body)).toBe(true);

    // the same card again is a retry, not a stale one
    const retry = await t.call("POST", ADVERTISE, { token: a.token, body: v1 });
    expect(retry.body.unchanged).toBe(true);

    // stale: a different card with the same seq, or a lower one
    for (const seq of [1, 0]) {
      const stale = signCard(cardFor(a.address, key.did, seq, { description: `older ${seq}` }), key.privateKey);
      const r = await t.call("POST", ADVERTISE, { token: a.token, body: stale });
      expectError(r, 409, "CONFLICT");
      expect(r.body.details).toMatchObject({ reason: "stale_seq", current_seq: 1, seq });
    }

    // tampered: changed after signing
    const v2 = signCard(cardFor(a.address, key.did, 2), key.privateKey);
    const tampered = { ...v2, description: "now also does wire transfers" };
    const bad = await t.call("POST", ADVERTISE, { token: a.token, body: tampered });
    expectError(bad, 422, "UNPROCESSABLE");
    expect(bad.body.details).toMatchObject({ reason: "bad_signature" });
    expect((await t.call("POST", DESCRIBE, { body: { agent_id: a.address } })).body).toEqual(v1);

    // the untampered newer card is accepted
    expect((await t.call("POST", ADVERTISE, { token: a.token, body: v2 })).body).toMatchObject({
      stored: true,
      seq: 2,
      unchanged: false,
    });
    expect((await t.call("POST", DESCRIBE, { body: { agent_id: a.address } })).body).toEqual(v2);
  });

  it("an unsigned card never replaces a signed one, even with a higher seq (§3.2)", async () => {
    const a = await signIn(t);
    const key = ed25519Identity();
    await t.call("POST", ADVERTISE, { token: a.token, body: signCard(cardFor(a.address, key.did, 5), key.privateKey) });
    for (const seq of [6, undefined]) {
      const r = await t.call("POST", ADVERTISE, { token: a.token, body: cardFor(a.address, undefined, seq) });
      expectError(r, 409, "CONFLICT");
      expect(r.body.details.reason).toBe("unsigned_over_signed");
    }
    // a session may move to a new key with a higher seq (key rotation)
    const next = ed25519Identity();
    const rotated = signCard(cardFor(a.address, next.did, 6), next.privateKey);
    expect((await t.call("POST", ADVERTISE, { token: a.token, body: rotated })).status).toBe(200);
  });

  it("unsigned cards: session only; seq, when present, must grow; absent seq replaces a seq-less card", async () => {
    const a = await signIn(t);
    expectError(await t.call("POST", ADVERTISE, { body: cardFor(a.address, undefined, 1) }), 401, "UNAUTHORIZED");
    expect(
      (await t.call("POST", ADVERTISE, { token: a.token, body: cardFor(a.address, undefined, undefined) })).body,
    ).toMatchObject({ stored: true, seq: null, signed: false });
    expect(
      (
        await t.call("POST", ADVERTISE, {
          token: a.token,
          body: cardFor(a.address, undefined, undefined, { name: "renamed" }),
        })
      ).body.unchanged,
    ).toBe(false);
    expect((await t.call("POST", ADVERTISE, { token: a.token, body: cardFor(a.address, undefined, 3) })).body.seq).toBe(
      3,
    );
    const noSeq = await t.call("POST", ADVERTISE, {
      token: a.token,
      body: cardFor(a.address, undefined, undefined, { name: "no seq" }),
    });
    expect(noSeq.body.details.reason).toBe("stale_seq");
    // the binding extension, when present, must be the caller; without it the card is the caller's
    const b = await signIn(t);
    const { extensions: _e, ...plain } = cardFor(b.address, undefined, undefined);
    expect((await t.call("POST", ADVERTISE, { token: b.token, body: plain })).body.agent_id).toBe(b.address);
    expectError(
      await t.call("POST", ADVERTISE, { token: b.token, body: cardFor(a.address, undefined, 9) }),
      403,
      "FORBIDDEN",
    );
  });

  it("signature only (no session): a newer card signed by the bound did:key is accepted; any other key is not", async () => {
    const a = await signIn(t);
    const key = ed25519Identity();
    // no binding yet: a signature alone cannot create one
    const early = await t.call("POST", ADVERTISE, { body: signCard(cardFor(a.address, key.did, 1), key.privateKey) });
    expectError(early, 401, "UNAUTHORIZED");
    expect(early.body.details.reason).toBe("did_not_bound");

    await t.call("POST", ADVERTISE, { token: a.token, body: signCard(cardFor(a.address, key.did, 1), key.privateKey) });
    const relayed = signCard(cardFor(a.address, key.did, 2, { name: "relayed" }), key.privateKey);
    expect((await t.call("POST", ADVERTISE, { body: relayed })).body).toMatchObject({
      stored: true,
      agent_id: a.address,
      seq: 2,
    });
    // replayed old card through a relay: stale
    const replay = await t.call("POST", ADVERTISE, {
      body: signCard(cardFor(a.address, key.did, 1, { name: "old" }), key.privateKey),
    });
    expect(replay.body.details.reason).toBe("stale_seq");
    // an attacker's key naming a's address
    const mallory = ed25519Identity();
    const forged = await t.call("POST", ADVERTISE, {
      body: signCard(cardFor(a.address, mallory.did, 99), mallory.privateKey),
    });
    expect(forged.body.details.reason).toBe("did_not_bound");
    // a's key cannot be bound to another agent either, nor a's signed card advertised by another session
    const b = await signIn(t);
    const squat = await t.call("POST", ADVERTISE, {
      token: b.token,
      body: signCard(cardFor(b.address, key.did, 1), key.privateKey),
    });
    expectError(squat, 409, "CONFLICT");
    expect(squat.body.details.reason).toBe("did_bound_elsewhere");
    expectError(await t.call("POST", ADVERTISE, { token: b.token, body: relayed }), 403, "FORBIDDEN");
    expect((await t.call("POST", DESCRIBE, { body: { agent_id: a.address } })).body).toEqual(relayed);
  });

  it("validation: signed cards need seq, a did:key and the binding; bad input is a clear 4xx", async () => {
    const a = await signIn(t);
    const key = ed25519Identity();
    const cases: [Record<string, unknown>, number, string][] = [
      [signCard(cardFor(a.address, key.did, undefined), key.privateKey), 400, "seq_required"],
      [signCard({ ...cardFor(a.address, key.did, 1), extensions: {} }, key.privateKey), 400, "agent_binding_required"],
      [signCard(cardFor(a.address, "did:web:bot.example", 1), key.privateKey), 422, "unsupported_did"],
      [signCard(cardFor(a.address, undefined, 1), key.privateKey), 400, "did_required"],
      [cardFor("0x1234", undefined, 1), 400, "invalid_agent_binding"],
    ];
    for (const [body, status, reason] of cases) {
      const r = await t.call("POST", ADVERTISE, { token: a.token, body });
      expect(r.status, reason).toBe(status);
      expect(r.body.details?.reason, r.text).toBe(reason);
    }
    expectError(
      await t.call("POST", ADVERTISE, {
        token: a.token,
        body: { ...cardFor(a.address, undefined, 1), id: "https://bot.example" },
      }),
      400,
      "INVALID_PARAMETER",
    );
    expectError(await t.call("POST", ADVERTISE, { token: a.token, body: "{not json" }), 400, "INVALID_PARAMETER");
    expectError(
      await t.call("POST", DESCRIBE, { body: { agent_id: "0x00000000000000000000000000000000000000ab" } }),
      404,
      "NOT_FOUND",
    );
    expectError(await t.call("POST", DESCRIBE, { body: { agent_id: "nope" } }), 400, "INVALID_PARAMETER");
  });

  it("size: a body over 65 535 bytes is 413 before parsing; a card whose canonical text exceeds it is refused too", async () => {
    const a = await signIn(t);
    const big = cardFor(a.address, undefined, 1, {
      extensions: { oabp: { agent_id: a.address }, "x.blob": { data: "a".repeat(MAX_CARD_BYTES) } },
    });
    const r = await t.call("POST", ADVERTISE, { token: a.token, body: big });
    expectError(r, 413, "PAYLOAD_TOO_LARGE");
    expect(r.body.details.reason).toBe("card_too_large");
    // straight to the verb (no HTTP limit): the canonical size is what counts
    await expect(
      advertise(ctxFor(t.deps, { kind: "agent", address: a.address, via: "session" }), big as never),
    ).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { reason: "card_too_large" } });
    const fits = cardFor(a.address, undefined, 1, { extensions: { "x.blob": { data: "a".repeat(60_000) } } });
    expect((await t.call("POST", ADVERTISE, { token: a.token, body: fits })).status).toBe(200);
  });
});

describe("adp.discover and the ranking lists", () => {
  // A database of its own: rankings are over every card, so no other test's cards may compete.
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t?.close());

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
    const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: w.token,
      body: { content: "done" },
    });
    expect(sub.status, sub.text).toBe(201);
    expect(
      (
        await t.call("POST", `/missions/${mission.id}/award`, {
          token: creator.token,
          body: { winners: [{ submission_id: sub.body.id }] },
        })
      ).status,
    ).toBe(200);
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
