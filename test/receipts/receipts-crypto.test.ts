import { createPublicKey, sign, verify as nodeVerify } from "node:crypto";
import { readFileSync } from "node:fs";
import * as ed from "@noble/ed25519";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/lib/canonical-json";
import { generateKeyring, newKeyRecord, privateKeyFromSeed } from "../../src/lib/receipt-keys";

// AIP-1 §6.1 building blocks: the RFC 8785 canonicaliser used for receipts, and the two ed25519
// code paths (node:crypto signs on the server, @noble/ed25519 verifies in the command).
const vectors = JSON.parse(readFileSync(new URL("../vectors/rfc8785-appendix-b.json", import.meta.url), "utf8"));

describe("RFC 8785 canonicalisation", () => {
  it("appendix B string and object", () => {
    expect(canonicalJson(vectors.appendix_b_string.input)).toBe(vectors.appendix_b_string.expected_jcs);
    expect(canonicalJson(JSON.parse(vectors.appendix_b_object.input_json_text))).toBe(
      vectors.appendix_b_object.expected_jcs,
    );
  });
  it("number serialisation table", () => {
    expect(vectors.number_table.length).toBeGreaterThan(5);
    for (const v of vectors.number_table as { input_json_text: string; expected: string }[]) {
      expect(canonicalJson(JSON.parse(v.input_json_text)), v.input_json_text).toBe(v.expected);
    }
  });
  it("sorts keys by UTF-16 code units, recursively", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: null }], c: "é" }, "\u20ac": 2, "\ud83d\ude00": 3 })).toBe(
      '{"a":{"c":"é","d":[1,{"y":null,"z":0}]},"b":1,"€":2,"😀":3}',
    );
  });
});

describe("ed25519: node:crypto and @noble/ed25519 agree", () => {
  it("same key and message give byte-identical signatures, and each verifies the other's", async () => {
    for (let i = 0; i < 5; i++) {
      const rec = newKeyRecord(new Date("2026-11-01T00:00:00Z"));
      const seed = new Uint8Array(Buffer.from(rec.private_key!, "base64url"));
      const pub = new Uint8Array(Buffer.from(rec.public_key, "base64url"));
      expect(Buffer.from(await ed.getPublicKeyAsync(seed)).toString("base64url")).toBe(rec.public_key);
      const msg = new TextEncoder().encode(canonicalJson({ i, type: "oabp.mission_receipt", text: "héllo ✓" }));
      const viaNode = sign(null, msg, privateKeyFromSeed(rec.private_key!));
      const viaNoble = await ed.signAsync(msg, seed);
      expect(Buffer.from(viaNoble).equals(viaNode)).toBe(true);
      expect(await ed.verifyAsync(new Uint8Array(viaNode), msg, pub)).toBe(true);
      expect(nodeVerify(null, msg, createPublicKey(privateKeyFromSeed(rec.private_key!)), viaNoble)).toBe(true);
    }
  });
  it("key ids name the month and stay unique", () => {
    const now = new Date("2026-11-05T00:00:00Z");
    expect(newKeyRecord(now).key_id).toBe("receipt-key-2026-11");
    expect(newKeyRecord(now, ["receipt-key-2026-11"]).key_id).toBe("receipt-key-2026-11-2");
    expect(generateKeyring(now).published).toHaveLength(1);
  });
});

describe("the attestation key's address (AIP-3 §2)", () => {
  it("is derived by Node's secp256k1 as viem derives it, and the lazily made account signs for it", async () => {
    const { signerFrom } = await import("../../src/lib/attestation-key");
    const { generatePrivateKey, privateKeyToAccount } = await import("viem/accounts");
    const { recoverMessageAddress } = await import("viem");
    // The key 1's address is well known (the generator point's).
    expect(signerFrom(`0x${"0".repeat(63)}1`).address).toBe("0x7e5f4552091a69125d5dfcb7b8c2659029395bdf");
    for (let i = 0; i < 8; i++) {
      const key = generatePrivateKey();
      const signer = signerFrom(key);
      expect(signer.address).toBe(privateKeyToAccount(key).address.toLowerCase());
      const signature = await signer.account.signMessage({ message: "oabp" });
      expect((await recoverMessageAddress({ message: "oabp", signature })).toLowerCase()).toBe(signer.address);
    }
  });
});
