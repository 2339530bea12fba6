import { encodeFunctionData, parseAbi, type Hex } from "viem";
import type { HDAccount } from "viem/accounts";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { missionEscrowV3Abi } from "../../src/lib/abi/mission-escrow-v3";
import type { EscrowModel, A, Terms } from "./escrow-fuzz-model";
import { U } from "./escrow-v3";

// What every step of the contract v3 / v4 invariant suite (test/helpers/escrow-fuzz.ts) works with:
// the sequence's context, its seeded PRNG, and the random choices the steps share (a funder, a
// slot, a caller, release terms). The steps: escrow-fuzz-funding.ts (funding),
// escrow-fuzz-ops.ts (release, refund, pause, tokens, time), escrow-fuzz-governance.ts (roles).

export const CFG = { feeCapBps: 100n, adminDelay: 3600n, releaseDelay: 600n, capPeriod: 86_400n, cap: U(150) };
export const usdcAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function setBlacklisted(address account, bool value)",
  "function transfer(address to, uint256 amount) returns (bool)",
]);
export type Prng = ReturnType<typeof prng>;

export interface FuzzCtx {
  m: EscrowModel;
  r: Prng;
  actors: A[];
  funders: A[];
  addr: (name: string) => A;
  acct: Record<string, HDAccount>;
  byAddr: Map<A, HDAccount>;
  keys: Hex[];
  keyOf: (i: number) => Hex;
  propTerms: Map<string, Terms>;
  usdc: A;
  escrow: A;
  chainId: number;
  /** Authorizations that funded a slot (replayed later: the token must refuse them). */
  auths: { from: A; args: unknown[] }[];
  /** Counts a state the sequence reached (cap reached, a revoked proposal, …): the suite checks they occur. */
  note(what: string): void;
  /** One transaction at the model's next second; true when it succeeded. */
  send(from: A, to: A, data: Hex): Promise<boolean>;
  /** Sends `data` with the model's verdict `allowed`; `apply` runs on success. */
  step(op: string, from: A, to: A, data: Hex, allowed: boolean, apply: () => void): Promise<void>;
}

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed from its seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, chance: (p: number) => next() < p, pick: <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]! };
}

/** The random choices the steps share, drawn from the sequence's PRNG and read from its model. */
export function opTools(ctx: FuzzCtx) {
  const { m, r, actors, addr, keys } = ctx;
  const v4 = m.cfg.v4;
  const E = (fn: string, args: unknown[]) =>
    encodeFunctionData({
      abi: v4 ? missionEscrowAbi : missionEscrowV3Abi,
      functionName: fn as never,
      args: args as never,
    });
  /** v4: a signed-only time — none, one before the refund-after, or (rarely) a refused one after it. */
  const signedOnly = (refundAfter: bigint) =>
    !v4 || r.chance(0.5)
      ? 0n
      : r.chance(0.9)
        ? m.time + BigInt(r.int(1, Number(refundAfter - m.time)))
        : refundAfter + 1n;
  const FUNDERS = ["f0", "f1", "f2", "f3", "s0", "s1"] as const;
  const caller = (preferred: Iterable<A>) => {
    const p = [...preferred];
    return p.length && r.chance(0.8) ? r.pick(p) : r.pick(actors);
  };
  const pickSlot = (): [Hex, A] => {
    const live = [...m.slots.keys()];
    if (live.length && r.chance(0.85)) {
      const [k, f] = r.pick(live).split(":");
      return [k as Hex, f as A];
    }
    return [r.pick(keys), addr(r.pick(FUNDERS))];
  };
  const terms = (key: Hex, funder: A): Terms => {
    const base = m.slot(key, funder)?.amount ?? U(50);
    const n = r.chance(0.03) ? 0 : r.int(1, 3);
    const paid = r.chance(0.05) ? base + 1n : (base * BigInt(r.int(0, 100))) / 100n;
    const amounts = Array.from({ length: n }, (_, i) =>
      i === 0 ? paid - (paid / BigInt(n)) * BigInt(n - 1) : paid / BigInt(n),
    );
    const fee = r.chance(0.3) ? 0n : r.chance(0.05) ? paid / 50n + 1n : paid / 99n;
    const recipients = Array.from({ length: n }, () => r.pick(actors));
    return { recipients, amounts, fee };
  };
  return { v4, E, signedOnly, FUNDERS, caller, pickSlot, terms };
}
