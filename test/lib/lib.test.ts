import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acquireDirLock } from "../../src/db/lockfile";
import { parseEnv } from "../../src/env";
import { toPrefixTsquery } from "../../src/features/missions/missions.queries";
import { normalizeAddress } from "../../src/lib/address";
import { normalizeSha256 } from "../../src/lib/hash";
import { isId, newId } from "../../src/lib/ids";
import { stableStringify } from "../../src/lib/idempotency";
import { bpsOf, isUintString, UINT256_MAX } from "../../src/lib/money";

describe("ids", () => {
  it("are prefixed, 26-char ULIDs, strictly increasing within one millisecond and across time", () => {
    const ids = Array.from({ length: 1000 }, () => newId("mis", 1_780_000_000_000));
    expect(ids.every((id) => isId("mis", id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
    expect(newId("sub", 1_780_000_000_001) > newId("sub", 1_780_000_000_000)).toBe(false); // clock went back: stays monotonic
    expect(isId("mis", "sub_01J00000000000000000000000")).toBe(false);
    expect(isId("mis", "mis_../../etc/passwd")).toBe(false);
  });
});

describe("money", () => {
  it("accepts exactly the uint256 base-10 strings", () => {
    expect(isUintString("0")).toBe(true);
    expect(isUintString(UINT256_MAX.toString())).toBe(true);
    expect(isUintString((UINT256_MAX + 1n).toString())).toBe(false);
    for (const bad of ["", "-1", "01", "1.0", "1e6", " 1", "0x10", "abc"]) expect(isUintString(bad), bad).toBe(false);
  });
  it("takes fees as an integer floor", () => {
    expect(bpsOf(100_000_000n, 50)).toBe(500_000n);
    expect(bpsOf(199n, 50)).toBe(0n);
  });
});

describe("content hashes (AIP-1 §3, §6.1)", () => {
  const hex = "3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7";
  it("normalises 0x, bare and sha256: forms to sha256:<lowercase hex>", () => {
    for (const f of [`0x${hex}`, hex, `sha256:${hex}`, `0x${hex.toUpperCase()}`])
      expect(normalizeSha256(f)).toBe(`sha256:${hex}`);
    for (const bad of ["", "0x1234", `sha512:${hex}`, `${hex}00`, "z".repeat(64)])
      expect(normalizeSha256(bad)).toBeNull();
  });
});

describe("addresses", () => {
  it("accepts any case, emits lowercase, refuses a bad EIP-55 checksum", () => {
    const lower = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    expect(normalizeAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe(lower);
    expect(normalizeAddress(lower.toUpperCase().replace("0X", "0x"))).toBe(lower);
    expect(normalizeAddress("0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBeNull();
    expect(normalizeAddress("0x123")).toBeNull();
  });
});

describe("stable JSON for idempotency", () => {
  it("ignores key order and undefined members", () => {
    expect(stableStringify({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      stableStringify({ a: { d: [1, { y: 2, z: 1 }] }, b: 1 }),
    );
    expect(stableStringify({ a: 1 })).not.toBe(stableStringify({ a: "1" }));
  });
});

describe("text search", () => {
  it("builds a bounded prefix tsquery from words only", () => {
    expect(toPrefixTsquery("Quantum  key-finder!")).toBe("quantum:* & key:* & finder:*");
    expect(toPrefixTsquery("'); drop table missions; --")).toBe("drop:* & table:* & missions:*");
    expect(toPrefixTsquery("!!!")).toBeNull();
    expect(toPrefixTsquery("a b c d e f g h i j")!.split("&")).toHaveLength(8);
  });
});

describe("env", () => {
  it("has working defaults", () => {
    const c = parseEnv({});
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      dataDir: "./data",
      publicUrl: "http://localhost:3000",
      feeBps: 50,
    });
    expect(c.assets[0]).toMatchObject({ symbol: "USDC", decimals: 6 });
  });
  it("stops on a bad value with a message naming the variable", () => {
    expect(() => parseEnv({ PORT: "http" })).toThrow(/PORT/);
    expect(() => parseEnv({ OABP_FEE_BPS: "101" })).toThrow(/OABP_FEE_BPS/);
    expect(() => parseEnv({ OABP_ASSETS: "{not json" })).toThrow(/OABP_ASSETS.*JSON/s);
    expect(() => parseEnv({ OABP_ADMIN_TOKEN: "short" })).toThrow(/OABP_ADMIN_TOKEN/);
    expect(() => parseEnv({ DATABASE_URL: "nope" })).toThrow(/DATABASE_URL/);
  });
  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", OABP_PUBLIC_URL: "" }).databaseUrl).toBeUndefined();
  });
});

describe("data dir lock", () => {
  it("refuses a second owner, takes over a stale lock, releases", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oabp-lock-"));
    const lock = acquireDirLock(dir);
    expect(() => acquireDirLock(dir)).toThrow(/already open/);
    lock.release();
    writeFileSync(path.join(dir, "oabp.lock"), "999999999"); // a pid that cannot be alive
    const again = acquireDirLock(dir);
    again.release();
    // a lock naming our own pid that we never took (restarted as the same pid, e.g. PID 1)
    writeFileSync(path.join(dir, "oabp.lock"), String(process.pid));
    const mine = acquireDirLock(dir);
    expect(() => acquireDirLock(dir)).toThrow(/already open/);
    mine.release();
  });
});
