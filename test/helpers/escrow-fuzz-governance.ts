import type { Hex } from "viem";
import { CFG, opTools, type FuzzCtx } from "./escrow-fuzz-ctx";
import type { A } from "./escrow-fuzz-model";
import { GUARDIAN_ROLE, RESOLVER_ROLE } from "./escrow-v3";

// The role steps of the contract v3 / v4 invariant suite (test/helpers/escrow-fuzz.ts): proposing,
// cancelling and activating a resolver or guardian, revoking them, and the two-step admin transfer,
// each by a random caller (mostly the one entitled).

/** One random governance call (`op`: propose…, cancel…, activate…, revoke…, …DefaultAdminTransfer). */
export async function governanceOp(ctx: FuzzCtx, op: string): Promise<void> {
  const { m, r, actors, addr, escrow, step } = ctx;
  const { v4, E, caller } = opTools(ctx);
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
