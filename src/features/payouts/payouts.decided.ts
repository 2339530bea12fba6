import type { ChainCtx } from "../../lib/context";
import { judgeMovement, raiseAlert, inCustodyTx, verifiedDecision } from "../custody";
import { transition } from "./payouts.transition";
import type { PayoutRow } from "../../db/rows";

// The settlement worker's two custody gates (docs/custody.md "Signed decisions"):
//  1. Before it signs anything for a payout (a new transaction, or a fee bump of a stored one), the
//     row's plan must be exactly the plan of its decision, signed by a receipt key this process is
//     configured with. A row rewritten in the database (recipients, amounts, fee, kind, slot), or
//     one without a decision, is refused: failed at once, `decision_refused:<reason>`, a custody
//     alert — never sent, never retried by another path.
//  2. Before it adopts a release it did not send (the slot emptied by someone's executeRelease),
//     the release must pay the plan of a verified decision; otherwise the payout fails
//     `taken:unknown_recipient` and the mission is never shown as paid.

/** True: the payout's plan is decided and signed; false: refused here (the row moved to failed). */
export async function decisionGate(ctx: ChainCtx, p: PayoutRow): Promise<boolean> {
  const { deps, chain, now } = ctx;
  const v = verifiedDecision({ deps, chain }, p);
  if (v.ok) return true;
  const reason = `decision_refused:${v.reason}`;
  await transition(
    { deps },
    {
      payout: p,
      values: { state: "failed", reason, nextCheckAt: null },
      extra: (tx) =>
        raiseAlert(
          { tx, deps, chain, now },
          {
            kind: "decision_refused",
            contract: p.escrowAddress ?? chain.escrow,
            missionId: p.missionId,
            missionKey: p.missionKey,
            funder: p.funder,
            of: `${p.id}:${v.reason}`,
            payoutId: p.id,
            detail: {
              reason,
              token: p.token,
              recipients: p.recipients.map((r) => ({ address: r.address, amount: r.amount })),
              fee: p.fee,
            },
          },
        ).then(() => undefined),
    },
  );
  return false;
}

/**
 * The slot of payout `p` was emptied by transaction `txHash`, which this worker did not send.
 * True: a verified decision explains it (adopt it); false: an alert is raised and the payout failed.
 */
export async function adoptionJudged(
  ctx: ChainCtx,
  { payout: p, txHash }: { payout: PayoutRow; txHash: string },
): Promise<boolean> {
  const { deps, chain } = ctx;
  const receipt = await chain.receipt(txHash);
  const mv = receipt?.movements?.find(
    (m) => m.missionKey === p.missionKey.toLowerCase() && m.funder === p.funder.toLowerCase(),
  );
  if (!mv) return true; // a v2 contract's release (other topics): adopted as before
  return inCustodyTx({ deps, chain }, (tx) => judgeMovement(tx, mv));
}
