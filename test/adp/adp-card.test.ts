import { describe, expect, it } from "vitest";
import { AgentCardSchema, isRevocation, verifyCardSignature } from "../../src/features/adp/adp.card";
import {
  base58btcDecode,
  base58btcEncode,
  didKeyFromEd25519,
  ed25519FromDidKey,
} from "../../src/features/adp/adp.didkey";
import { ed25519Identity, signCard as signWith } from "../helpers/adp";

// ADP §3.2 card signatures with did:key (Ed25519) keys.

describe("base58btc and did:key", () => {
  it("base58btc: known vectors, leading zeros, bad characters", () => {
    expect(base58btcEncode(new TextEncoder().encode("Hello World!"))).toBe("2NEpo7TZRRrLZSi2U");
    expect(Buffer.from(base58btcDecode("2NEpo7TZRRrLZSi2U")!).toString()).toBe("Hello World!");
    expect(base58btcEncode(Uint8Array.from([0, 0, 1]))).toBe("112");
    expect([...base58btcDecode("112")!]).toEqual([0, 0, 1]);
    expect(base58btcDecode("0OIl")).toBeNull();
  });

  it("did:key: the W3C example round-trips; every Ed25519 did:key starts z6Mk", () => {
    const example = "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp";
    const key = ed25519FromDidKey(example);
    expect(key?.length).toBe(32);
    expect(didKeyFromEd25519(key!)).toBe(example);
    for (let i = 0; i < 5; i++) {
      const id = ed25519Identity();
      expect(id.did.startsWith("did:key:z6Mk")).toBe(true);
      expect(Buffer.from(ed25519FromDidKey(id.did)!).equals(id.raw)).toBe(true);
    }
  });

  it("refuses what is not an Ed25519 did:key", () => {
    // secp256k1 did:key (multicodec 0xe7), did:web, no multibase prefix, truncated, a fragment
    expect(ed25519FromDidKey("did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme")).toBeNull();
    expect(ed25519FromDidKey("did:web:example.com")).toBeNull();
    expect(ed25519FromDidKey("did:key:6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp")).toBeNull();
    expect(ed25519FromDidKey("did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDoo")).toBeNull();
    expect(ed25519FromDidKey("did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp#z6Mk")).toBeNull();
    expect(ed25519FromDidKey(`did:key:z${"1".repeat(200)}`)).toBeNull();
  });
});

describe("Agent Card signature (ADP §3.2)", () => {
  const me = ed25519Identity();
  const unsigned = {
    id: "agent://translator-zh-en",
    did: me.did,
    name: "translator-zh-en",
    skills: ["nlp/translation"],
    extensions: { "clawnet.reputation": { score: 78.5 } },
    seq: 3,
    future_field: { kept: true },
  };

  it("verifies a card signed over the JCS of the card without signature, whatever the key order", async () => {
    const card = signWith(unsigned, me.privateKey);
    expect(await verifyCardSignature(card)).toEqual({ ok: true });
    const reordered = Object.fromEntries(Object.entries(card).reverse());
    expect(await verifyCardSignature(reordered)).toEqual({ ok: true });
    // the schema keeps unknown fields, so the validated object verifies too
    expect(await verifyCardSignature(AgentCardSchema.parse(card))).toEqual({ ok: true });
  });

  it("refuses a tampered card, another key, no did, a non-Ed25519 did", async () => {
    const card = signWith(unsigned, me.privateKey);
    expect(await verifyCardSignature({ ...card, seq: 4 })).toEqual({ ok: false, reason: "bad_signature" });
    expect(await verifyCardSignature({ ...card, future_field: { kept: false } })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(await verifyCardSignature({ ...card, did: ed25519Identity().did })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    const { did: _did, ...noDid } = card;
    expect(await verifyCardSignature(noDid)).toEqual({ ok: false, reason: "did_required" });
    expect(await verifyCardSignature({ ...card, did: "did:web:example.com" })).toEqual({
      ok: false,
      reason: "unsupported_did",
    });
    expect(await verifyCardSignature(unsigned)).toEqual({ ok: false, reason: "unsigned" });
    expect(await verifyCardSignature({ ...card, signature: "A".repeat(86) })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("schema: the two required fields, agent:// ids, seq within JCS integers, unknown fields kept", () => {
    expect(AgentCardSchema.safeParse({ id: "agent://x", name: "x" }).success).toBe(true);
    expect(AgentCardSchema.safeParse({ id: "https://x", name: "x" }).success).toBe(false);
    expect(AgentCardSchema.safeParse({ id: "agent://x" }).success).toBe(false);
    expect(AgentCardSchema.safeParse({ id: "agent://x", name: "x", seq: 2 ** 53 }).success).toBe(false);
    expect(AgentCardSchema.safeParse({ id: "agent://x", name: "x", signature: "abc" }).success).toBe(false);
    expect(AgentCardSchema.safeParse({ id: "agent://x", name: "x", tools: [{ name: "é".repeat(128) }] }).success).toBe(
      false,
    ); // 256 octets
    const parsed = AgentCardSchema.parse({ id: "agent://x", name: "x", tools: [{ name: "t", x_extra: 1 }], zzz: [1] });
    expect(parsed).toEqual({ id: "agent://x", name: "x", tools: [{ name: "t", x_extra: 1 }], zzz: [1] });
  });

  it("§6.4: empty tools and endpoints is a revocation", () => {
    expect(isRevocation({ id: "agent://x", name: "x", tools: [], endpoints: [] })).toBe(true);
    expect(isRevocation({ id: "agent://x", name: "x", tools: [] })).toBe(false);
    expect(isRevocation({ id: "agent://x", name: "x" })).toBe(false);
  });
});
