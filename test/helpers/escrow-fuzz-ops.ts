import { encodeFunctionData, type Hex } from "viem";
import { signReleaseV4With, signReleaseWith } from "./escrow-chain";
import { opTools, usdcAbi, type FuzzCtx } from "./escrow-fuzz-ctx";
import { fundOp } from "./escrow-fuzz-funding";
import { governanceOp } from "./escrow-fuzz-governance";
import type { A } from "./escrow-fuzz-model";
import { U } from "./escrow-v3";

// The steps of the contract v3 / v4 invariant suite (test/helpers/escrow-fuzz.ts): one random call
// of an entry point by a random actor, with the model's verdict (escrow-fuzz-model.ts). Funding
// steps are in escrow-fuzz-funding.ts, role steps in escrow-fuzz-governance.ts; here the release
// paths (on v4 signed with stale instances, other tokens and past deadlines), refunds, reclaims,
// pause, withdraw, sweep, token moves, the blacklist and time.

/** One random step `op` (a name of OPS) on the sequence's chain and model. */
export async function runOp(ctx: FuzzCtx, op: string): Promise<void> {
  const { m, r, actors, byAddr, propTerms, usdc, escrow, chainId, step } = ctx;
  const { v4, E, caller, pickSlot, terms } = opTools(ctx);
  switch (op) {
    case "fund":
    case "fundUntil":
    case "fundUntilWithPermit":
    case "fundWithAuthorization":
      return fundOp(ctx, op);
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
      await governanceOp(ctx, op);
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
