import { sql } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import type { EscrowRecord } from "../../db/schema/index";
import type { MissionEscrowWire } from "./escrow.schemas";
import type { MissionRow as Mission } from "../../db/rows";

/** The mission's escrow on the wire: terms, the call to make, the deposit and the payout tx. */
export function escrowToWire(
  m: Pick<Mission, "escrow" | "rewardAmount" | "spamFee" | "payoutTxHash">,
): z.infer<typeof MissionEscrowWire> | null {
  const e: EscrowRecord | null = m.escrow;
  if (!e) return null;
  return {
    chain_id: e.chain_id,
    contract: e.contract,
    mission_key: e.mission_key,
    token: e.token,
    amount: m.rewardAmount,
    spam_fee: m.spamFee,
    fund_call:
      e.refund_after !== undefined
        ? e.signed_only_until !== undefined
          ? `fundUntil(${e.mission_key}, ${e.token}, ${m.rewardAmount}, ${m.spamFee}, ${e.refund_after}, ${e.signed_only_until})`
          : `fundUntil(${e.mission_key}, ${e.token}, ${m.rewardAmount}, ${m.spamFee}, ${e.refund_after})`
        : `fund(${e.mission_key}, ${e.token}, ${m.rewardAmount}, ${m.spamFee})`,
    refund_after: e.refund_after !== undefined ? new Date(e.refund_after * 1000).toISOString() : null,
    signed_only_until:
      e.signed_only_until !== undefined
        ? e.signed_only_until === 0
          ? null
          : new Date(e.signed_only_until * 1000).toISOString()
        : null,
    deposit: e.deposit ? { ...e.deposit, status: e.deposit.status as "pending" } : null,
    payout_tx_hash: m.payoutTxHash,
  };
}

/**
 * A contract address as an SQL literal (a query groups by coalesce(escrow_address, <configured>):
 * a bind parameter there would differ between SELECT and GROUP BY). Only hex digits pass.
 */
export const addressLiteral = (address: string) => sql.raw(`'${address.toLowerCase().replace(/[^0-9a-fx]/g, "")}'`);
