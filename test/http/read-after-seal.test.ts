import { describe, expect, it } from "vitest";
import { cookieSeal } from "../../src/http/read-after";
import { generateKeyring } from "../../src/lib/receipt-keys";

// docs/operations.md "The read-after cookie is sealed": the cookie carries the WAL position
// encrypted and authenticated; what a client cannot open, read or forge is ignored.
describe("read-after cookie seal", () => {
  const now = new Date("2026-11-27T00:00:00Z");
  const keyring = generateKeyring(now);
  const seal = cookieSeal(keyring.active.privateKey);

  it("opens what it sealed; the value shows no position and differs each time", () => {
    const lsn = (0x1an << 32n) | 0x2b3c4d5en;
    const a = seal.seal(lsn);
    const b = seal.seal(lsn);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]{48}$/);
    expect(a).not.toBe(b);
    expect(a.toUpperCase()).not.toContain("2B3C4D5E");
    expect(seal.open(a)).toBe(lsn);
    expect(seal.open(b)).toBe(lsn);
    // Another instance with the same receipt key opens it too.
    expect(cookieSeal(keyring.active.privateKey).open(a)).toBe(lsn);
  });

  it("ignores a plain position, a tampered or truncated value, and another key's seal", () => {
    const good = seal.seal(42n);
    expect(seal.open("1A/2B3C4D5E")).toBeUndefined();
    expect(seal.open("")).toBeUndefined();
    expect(seal.open(good.slice(0, -1))).toBeUndefined();
    // Flip each byte of the sealed part in turn: none opens.
    const raw = Buffer.from(good.slice(3), "base64url");
    for (let i = 0; i < raw.length; i++) {
      const t = Buffer.from(raw);
      t[i]! ^= 0x01;
      expect(seal.open(`v1.${t.toString("base64url")}`)).toBeUndefined();
    }
    const other = cookieSeal(generateKeyring(now).active.privateKey);
    expect(other.open(good)).toBeUndefined();
    expect(seal.open(other.seal(42n))).toBeUndefined();
  });
});
