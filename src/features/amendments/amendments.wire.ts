import type { missionAmendments } from "../../db/schema/index";
import type { AmendmentWire } from "./amendments.schemas";

export type AmendmentRow = typeof missionAmendments.$inferSelect;

/** Row → wire (explicit mapping, docs/style.md rule 6). */
export function amendmentToWire(a: AmendmentRow): AmendmentWire {
  const e = a.escrow;
  return {
    id: a.id,
    mission_id: a.missionId,
    seq: a.seq,
    kind: a.kind,
    actor: a.actor,
    status: a.status,
    rail: a.rail,
    changes: a.changes,
    amount: a.amount,
    escrow: e
      ? {
          chain_id: e.chain_id,
          contract: e.contract,
          token: e.token,
          mission_key: e.mission_key,
          amount: a.amount ?? "0",
          spam_fee: "0",
          refund_after: e.refund_after,
          fund_call: `fundUntil(${e.mission_key}, ${e.token}, ${a.amount}, 0, ${e.refund_after})`,
          deposit_tx_hash: e.tx_hash,
        }
      : null,
    reason: a.reason,
    created_at: a.createdAt.toISOString(),
    applied_at: a.appliedAt?.toISOString() ?? null,
  };
}
