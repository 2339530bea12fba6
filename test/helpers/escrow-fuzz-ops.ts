import {
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  keccak256,
  parseAbi,
  parseSignature,
  parseUnits,
  toBytes,
  toHex,
  type Hex,
} from "viem";
import type { HDAccount } from "viem/accounts";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { missionEscrowV3Abi } from "../../src/lib/abi/mission-escrow-v3";
import { signReleaseV4With, signReleaseWith } from "./escrow-chain";
import type { EscrowModel, A, Terms } from "./escrow-fuzz-model";

// The steps of the contract v3 / v4 invariant suite (test/helpers/escrow-fuzz.ts): one random call
// of an entry point by a random actor, with the model's verdict (escrow-fuzz-model.ts). On v4 the
// steps also fund signed-only slots and from EIP-3009 authorizations (fresh, replayed, forged),
// sign releases with stale instances, other tokens and past deadlines, and bump the resolver epoch.

export const U = (n: number) => parseUnits(String(n), 6);
export const RESOLVER_ROLE = keccak256(toBytes("RESOLVER_ROLE"));
export const GUARDIAN_ROLE = keccak256(toBytes("GUARDIAN_ROLE"));
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

export async function runOp(ctx: FuzzCtx, op: string): Promise<void> {
  const { m, r, actors, addr, acct, byAddr, keys, keyOf, propTerms, usdc, escrow, chainId, send, step } = ctx;
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

  switch (op) {
    case "fund":
    case "fundUntil":
    case "fundUntilWithPermit": {
      const f = r.chance(0.85) ? addr(r.pick(FUNDERS)) : r.pick(actors);
      if (r.chance(0.25)) keys.push(keyOf(keys.length));
      const key = r.chance(0.5) ? keys.at(-1)! : r.pick(keys.slice(-4));
      const amount = U(r.int(1, 200));
      const spam = r.chance(0.5) ? U(1) : 0n;
      let refundAfter = m.time + 2n + BigInt(r.int(60, 40 * 86_400));
      if (r.chance(0.05)) refundAfter = m.time + 1n + 3n * 365n * 86_400n;
      let data: Hex;
      let permitOk = false;
      let signedOnlyUntil = 0n;
      if (op === "fundUntilWithPermit") {
        const deadline = m.time + 3600n;
        permitOk = r.chance(0.85);
        const signer = permitOk ? byAddr.get(f)! : f === addr("s1") ? acct.s0! : acct.s1!;
        const sig = await signer.signTypedData({
          domain: { name: "Test USD Coin", version: "1", chainId: chainId, verifyingContract: usdc },
          types: {
            Permit: [
              { name: "owner", type: "address" },
              { name: "spender", type: "address" },
              { name: "value", type: "uint256" },
              { name: "nonce", type: "uint256" },
              { name: "deadline", type: "uint256" },
            ],
          },
          primaryType: "Permit",
          message: { owner: f, spender: escrow, value: amount + spam, nonce: m.get(m.permitNonce, f), deadline },
        });
        const { r: pr, s: ps, v, yParity } = parseSignature(sig);
        const vv = Number(v ?? BigInt(yParity + 27));
        signedOnlyUntil = signedOnly(refundAfter);
        data = v4
          ? E(op, [key, usdc, amount, spam, refundAfter, signedOnlyUntil, deadline, vv, pr, ps])
          : E(op, [key, usdc, amount, spam, refundAfter, deadline, vv, pr, ps]);
      } else {
        if (r.chance(0.9)) {
          const approve = encodeFunctionData({
            abi: erc20Abi,
            functionName: "approve",
            args: [escrow, amount + spam],
          });
          if (await send(f, usdc, approve)) m.allowance.set(f, amount + spam);
        }
        if (op === "fund") refundAfter = m.time + 1n + 365n * 86_400n;
        else signedOnlyUntil = signedOnly(refundAfter);
        data =
          op === "fund"
            ? E(op, [key, usdc, amount, spam])
            : v4
              ? E(op, [key, usdc, amount, spam, refundAfter, signedOnlyUntil])
              : E(op, [key, usdc, amount, spam, refundAfter]);
      }
      const at = m.time + 1n;
      const allowed = ((): boolean => {
        m.time = at;
        const ok = m.allowedFund(f, key, amount, spam, refundAfter, permitOk, signedOnlyUntil);
        m.time = at - 1n;
        return ok;
      })();
      await step(op, f, escrow, data, allowed, () =>
        m.applyFund(f, key, amount, spam, refundAfter, permitOk, signedOnlyUntil),
      );
      break;
    }
    case "fundWithAuthorization": {
      if (!v4) return;
      const relayer = r.pick(actors);
      const replay = ctx.auths.length > 0 && r.chance(0.1) ? r.pick(ctx.auths) : undefined;
      if (replay) {
        // The token spent this authorization's nonce when it funded: refused, whatever the slot's state.
        await step(op, relayer, escrow, E(op, replay.args), false, () => {});
        break;
      }
      const f = r.chance(0.85) ? addr(r.pick(FUNDERS)) : r.pick(actors);
      if (r.chance(0.25)) keys.push(keyOf(keys.length));
      const key = r.chance(0.5) ? keys.at(-1)! : r.pick(keys.slice(-4));
      const amount = U(r.int(1, 200));
      const spam = r.chance(0.5) ? U(1) : 0n;
      const refundAfter = m.time + 2n + BigInt(r.int(60, 40 * 86_400));
      const signedOnlyUntil = signedOnly(refundAfter);
      const salt = toHex(r.int(0, 2 ** 31), { size: 32 });
      const nonce = keccak256(
        encodeAbiParameters(
          ["uint256", "address", "bytes32", "uint256", "uint256", "uint256", "uint256", "bytes32"].map((type) => ({
            type,
          })),
          [BigInt(chainId), escrow, key, amount, spam, refundAfter, signedOnlyUntil, salt],
        ),
      );
      const validBefore = m.time + 3600n;
      const forged = r.chance(0.1);
      const signer = forged ? (f === addr("s1") ? acct.s0! : acct.s1!) : byAddr.get(f)!;
      const sig = await signer.signTypedData({
        domain: { name: "Test USD Coin", version: "1", chainId, verifyingContract: usdc },
        types: {
          ReceiveWithAuthorization: [
            { name: "from", type: "address" },
            { name: "to", type: "address" },
            { name: "value", type: "uint256" },
            { name: "validAfter", type: "uint256" },
            { name: "validBefore", type: "uint256" },
            { name: "nonce", type: "bytes32" },
          ],
        },
        primaryType: "ReceiveWithAuthorization",
        message: { from: f, to: escrow, value: amount + spam, validAfter: 0n, validBefore, nonce },
      });
      const { r: ar, s: as, v, yParity } = parseSignature(sig);
      const auth = { from: f, validAfter: 0n, validBefore, salt, v: Number(v ?? BigInt(yParity + 27)), r: ar, s: as };
      const args = [key, usdc, amount, spam, refundAfter, signedOnlyUntil, auth];
      const at = m.time + 1n;
      m.time = at;
      const allowed =
        !forged &&
        !m.authUsed.has(`${f}:${nonce}`) &&
        m.allowedFund(f, key, amount, spam, refundAfter, false, signedOnlyUntil, true);
      m.time = at - 1n;
      await step(op, relayer, escrow, E(op, args), allowed, () => {
        m.applyFund(f, key, amount, spam, refundAfter, false, signedOnlyUntil, true);
        m.authUsed.add(`${f}:${nonce}`);
        ctx.auths.push({ from: f, args });
      });
      break;
    }
    case "releaseSigned": {
      const [key, f] = pickSlot();
      const t = terms(key, f);
      const signer = r.chance(0.75) ? f : r.pick(actors);
      const c = caller(m.resolvers);
      if (v4) {
        // Mostly the slot as it is; sometimes a stale or future instance, another token, a past deadline.
        const live = m.slot(key, f)?.nonce ?? m.fundings.get(`${key}:${f}`) ?? 0n;
        const nonce = r.chance(0.85) ? live : r.chance(0.5) && live > 0n ? live - 1n : live + 1n;
        const rightToken = r.chance(0.95);
        const deadline = r.chance(0.9) ? m.time + BigInt(r.int(1, 3600)) : m.time - BigInt(r.int(0, 100));
        const sig = await signReleaseV4With(
          byAddr.get(signer)!,
          { chainId, escrow },
          { missionKey: key, funder: f, ...t, token: rightToken ? usdc : escrow, fundingNonce: nonce, deadline },
        );
        m.time += 1n;
        const allowed = m.allowedReleaseSigned(c, key, f, t, signer === f, { nonce, rightToken, deadline });
        m.time -= 1n;
        const consent = { deadline, signature: sig };
        await step(op, c, escrow, E(op, [key, f, t.recipients, t.amounts, t.fee, consent]), allowed, () =>
          m.applyRelease(key, f, t),
        );
        break;
      }
      const sig = await signReleaseWith(
        byAddr.get(signer)!,
        { chainId: chainId, escrow },
        { missionKey: key, funder: f, ...t },
      );
      m.time += 1n;
      const allowed = m.allowedReleaseSigned(c, key, f, t, signer === f);
      m.time -= 1n;
      await step(op, c, escrow, E(op, [key, f, t.recipients, t.amounts, t.fee, sig]), allowed, () =>
        m.applyRelease(key, f, t),
      );
      break;
    }
    case "proposeRelease": {
      const [key, f] = pickSlot();
      const t = terms(key, f);
      const c = caller(m.resolvers);
      m.time += 1n;
      const allowed = m.allowedPropose(c, key, f, t);
      const s0 = m.slot(key, f);
      if (v4 && s0 && m.resolvers.has(c) && m.time < s0.signedOnlyUntil) ctx.note("signed_only_refused");
      m.time -= 1n;
      await step(op, c, escrow, E(op, [key, f, t.recipients, t.amounts, t.fee]), allowed, () => {
        m.applyPropose(key, f, t);
        propTerms.set(`${key}:${f}`, t);
      });
      break;
    }
    case "executeRelease": {
      const live = [...m.proposals.keys()];
      const [key, f] = (live.length && r.chance(0.85) ? r.pick(live).split(":") : pickSlot()) as [Hex, A];
      const t = r.chance(0.85) && propTerms.has(`${key}:${f}`) ? propTerms.get(`${key}:${f}`)! : terms(key, f);
      const c = r.pick(actors);
      const p = m.proposal(key, f);
      // Often wait for the window to end (sometimes to the very second it ends, or one short of it).
      if (p && m.time + 1n < p.executableAt && r.chance(0.6)) m.time = p.executableAt - BigInt(r.int(1, 2));
      m.time += 1n;
      const allowed = m.allowedExecute(key, f, t);
      if (p && !m.liveProposal(key, f)) ctx.note("proposal_revoked");
      else if (p && !m.paused && m.time >= p.executableAt && m.validRelease(key, f, t)) {
        const total = t.amounts.reduce((x, y) => x + y, 0n) + t.fee;
        if (total > m.capAvailable()) ctx.note("cap_reached");
      }
      m.time -= 1n;
      await step(op, c, escrow, E(op, [key, f, t.recipients, t.amounts, t.fee]), allowed, () =>
        m.applyExecute(key, f, t),
      );
      break;
    }
    case "cancelRelease": {
      const live = [...m.proposals.keys()];
      const [key, f] = (live.length && r.chance(0.85) ? r.pick(live).split(":") : pickSlot()) as [Hex, A];
      const c = caller(m.guardians);
      const allowed = m.guardians.has(c) && !!m.proposal(key, f);
      await step(op, c, escrow, E(op, [key, f]), allowed, () => m.proposals.delete(`${key}:${f}`));
      break;
    }
    case "pause":
    case "unpause": {
      const c = caller(m.guardians);
      const allowed = m.guardians.has(c) && m.paused === (op === "unpause");
      await step(op, c, escrow, E(op, []), allowed, () => (m.paused = op === "pause"));
      break;
    }
    case "refund": {
      const [key, f] = pickSlot();
      const c = caller(m.resolvers);
      // v4: pause covers the resolver's refund.
      const allowed = m.resolvers.has(c) && !!m.slot(key, f) && !(v4 && m.paused);
      await step(op, c, escrow, E(op, [key, f]), allowed, () => m.applyRefundTo(key, f));
      break;
    }
    case "reclaim":
    case "selfRefund": {
      const [key, f] = pickSlot();
      const c = r.chance(0.9) ? f : r.pick(actors);
      m.time += 1n;
      const allowed = op === "reclaim" ? m.released.has(key) && !!m.slot(key, c) : m.allowedSelfRefund(c, key);
      const since = m.governancePendingSince();
      const s0 = m.slot(key, c);
      const p0 = m.liveProposal(key, c);
      if (
        op === "selfRefund" &&
        v4 &&
        s0 &&
        since &&
        m.time < s0.refundAfter &&
        s0.fundedAt <= since &&
        p0 &&
        p0.proposedAt <= since
      )
        ctx.note("exit_kept_for_proposal");
      m.time -= 1n;
      await step(op, c, escrow, E(op, [key]), allowed, () => m.applyRefundTo(key, c));
      break;
    }
    case "withdraw": {
      const withCredit = [...m.credits.keys()];
      const c = withCredit.length && r.chance(0.8) ? r.pick(withCredit) : r.pick(actors);
      await step(op, c, escrow, E(op, [usdc]), m.allowedWithdraw(c), () => m.applyWithdraw(c));
      break;
    }
    case "sweep": {
      const c = caller([m.admin]);
      const to = r.pick(actors);
      await step(op, c, escrow, E(op, [usdc, to]), m.allowedSweep(c, to), () => m.applySweep(to));
      break;
    }
    case "transfer": {
      const from = r.pick(actors);
      const x = U(r.int(1, 20));
      const data = encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [escrow, x] });
      await step(op, from, usdc, data, !m.blacklisted.has(from), () => {
        m.add(m.bal, from, -x);
        m.add(m.bal, escrow, x);
        m.surplus += x;
      });
      break;
    }
    case "blacklist":
    case "unblacklist": {
      const who = op === "unblacklist" && m.blacklisted.size ? r.pick([...m.blacklisted]) : r.pick(actors);
      const data = encodeFunctionData({
        abi: usdcAbi,
        functionName: "setBlacklisted",
        args: [who, op === "blacklist"],
      });
      await step(op, r.pick(actors), usdc, data, true, () =>
        op === "blacklist" ? m.blacklisted.add(who) : m.blacklisted.delete(who),
      );
      break;
    }
    case "timeJump": {
      const d = r.chance(0.5) ? r.int(1, 700) : r.chance(0.6) ? r.int(700, 2 * 86_400) : r.int(2 * 86_400, 40 * 86_400);
      m.time += BigInt(d);
      break;
    }
    default:
      await governance(op);
  }

  async function governance(op: string) {
    if (
      [...m.proposals.keys()].some((k) => {
        const [key, f] = k.split(":");
        return !!m.liveProposal(key as Hex, f as A);
      })
    )
      ctx.note("governance_during_proposals");
    const c = caller(
      op.startsWith("accept") ? [m.adminTransfer?.to ?? m.admin] : op.startsWith("activate") ? actors : [m.admin],
    );
    const isAdmin = c === m.admin;
    const at = m.time + 1n;
    if (op === "proposeResolver" || op === "proposeGuardian") {
      const who = r.chance(0.7) ? addr(op === "proposeResolver" ? "resolver2" : "guardian2") : r.pick(actors);
      const p = { who, at: at + CFG.adminDelay, since: at };
      await step(op, c, escrow, E(op, [who]), isAdmin, () =>
        op === "proposeResolver" ? (m.pendingResolver = p) : (m.pendingGuardian = p),
      );
    } else if (op === "cancelResolverProposal" || op === "cancelGuardianProposal") {
      const pending = op === "cancelResolverProposal" ? m.pendingResolver : m.pendingGuardian;
      await step(op, c, escrow, E(op, []), isAdmin && !!pending, () =>
        op === "cancelResolverProposal" ? (m.pendingResolver = null) : (m.pendingGuardian = null),
      );
    } else if (op === "activateResolver" || op === "activateGuardian") {
      const pending = op === "activateResolver" ? m.pendingResolver : m.pendingGuardian;
      await step(op, c, escrow, E(op, []), !!pending && at >= pending.at, () => {
        if (op === "activateResolver") {
          m.resolvers.add(pending!.who);
          m.pendingResolver = null;
          if (v4) m.epoch++; // the office changes hands: older proposals die
        } else {
          // One guardian at a time: the activated one replaces the one in office.
          m.guardians.clear();
          m.guardians.add(pending!.who);
          m.pendingGuardian = null;
        }
      });
    } else if (op === "revokeGuardian") {
      // The guardian is replaced only through a proposal: revoking it is refused, even for the admin.
      const who = m.guardians.size && r.chance(0.8) ? r.pick([...m.guardians]) : r.pick(actors);
      await step(op, c, escrow, E("revokeRole", [GUARDIAN_ROLE, who]), false, () => {});
    } else if (op === "revokeResolver") {
      const who = m.resolvers.size && r.chance(0.8) ? r.pick([...m.resolvers]) : r.pick(actors);
      await step(op, c, escrow, E("revokeRole", [RESOLVER_ROLE, who]), isAdmin, () => {
        if (v4 && m.resolvers.has(who)) m.epoch++; // a revoked resolver's proposals die with it
        m.resolvers.delete(who);
      });
    } else if (op === "beginDefaultAdminTransfer") {
      const to = r.chance(0.8) ? (m.admin === addr("admin1") ? addr("admin2") : addr("admin1")) : r.pick(actors);
      await step(
        op,
        c,
        escrow,
        E(op, [to]),
        isAdmin,
        () => (m.adminTransfer = { to, schedule: at + CFG.adminDelay, since: at }),
      );
    } else if (op === "cancelDefaultAdminTransfer") {
      await step(op, c, escrow, E(op, []), isAdmin, () => (m.adminTransfer = null));
    } else if (op === "acceptDefaultAdminTransfer") {
      m.time = at;
      const allowed = m.allowedAcceptAdmin(c);
      m.time = at - 1n;
      await step(op, c, escrow, E(op, []), allowed, () => m.applyAcceptAdmin());
    }
  }
}

export const OPS: readonly string[] = Object.entries({
  fund: 8,
  fundUntil: 10,
  fundUntilWithPermit: 8,
  fundWithAuthorization: 6, // v4 only (a no-op step on v3)
  releaseSigned: 8,
  proposeRelease: 10,
  executeRelease: 10,
  cancelRelease: 3,
  pause: 2,
  unpause: 3,
  refund: 4,
  reclaim: 4,
  selfRefund: 7,
  withdraw: 4,
  sweep: 2,
  transfer: 3,
  blacklist: 2,
  unblacklist: 3,
  timeJump: 8,
  proposeResolver: 1,
  cancelResolverProposal: 1,
  activateResolver: 2,
  revokeResolver: 0.5,
  revokeGuardian: 0.3,
  proposeGuardian: 1,
  cancelGuardianProposal: 1,
  activateGuardian: 1,
  beginDefaultAdminTransfer: 1,
  cancelDefaultAdminTransfer: 1,
  acceptDefaultAdminTransfer: 2,
}).flatMap(([op, w]) => Array<string>(Math.round(w * 2)).fill(op));
