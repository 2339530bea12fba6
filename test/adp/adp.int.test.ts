import { describe, expect, it } from "vitest";
import { advertise } from "../../src/features/adp/adp.advertise";
import { ctxFor } from "../../src/lib/context";
import { MAX_CARD_BYTES } from "../../src/features/adp/adp.card";
import { ed25519FromDidKey } from "../../src/features/adp/adp.didkey";
import { buildServerCard } from "../../src/features/adp/adp.server-card";
import { makeTestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { ed25519Identity, signCard } from "../helpers/adp";
import { expectError } from "../helpers/errors";
import { ADVERTISE, DESCRIBE, cardFor, verifies } from "./adp-cards";
import { useTestApp } from "../helpers/suite-app";

// ADP (draft-song-anp-adp-00) over HTTP: the server's signed card, adp.describe and advertise
// (discovery and the ranking lists: adp-discover.int.test.ts). The round trip: advertise → describe → verify, stale seq
// refused, tampered card refused.

const t = useTestApp();

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
