import type { BaseChain, FundedLog, TxReceipt } from "../../lib/base-chain";
import type { EscrowRecord } from "../../db/schema/index";

// Deposit verification (AIP-1 §6 "Rewards MUST be escrowed before a mission goes open";
// docs/design.md "Escrow and settlement"): pure, so every rule is unit-tested without a chain.

/** Why a funding transaction does not escrow a mission (stable constants, docs/style.md rule 8). */
export const DEPOSIT_REJECTIONS = {
  tx_not_found: "the transaction is not in a block (yet): retry once it is mined",
  tx_failed: "the transaction reverted",
  wrong_contract: "the transaction has Funded logs, but not from this server's escrow contract",
  no_funded_log: "the transaction emitted no Funded log",
  wrong_mission_key: "the escrow's Funded log names another mission key",
  token_not_allowed: "the deposit is not in the mission's reward token",
  amount_short: "the escrowed amount is below the reward",
  spam_fee_short: "the spam fee paid is below the mission's spam fee",
  refund_after_short:
    "the deposit's refund-after time is before the mission's refund_after: its funder could take it back before the payout (use fundUntil)",
  mission_not_pending: "the mission is not waiting for a deposit (already funded, voided or expired)",
} as const;
export type DepositRejection = keyof typeof DEPOSIT_REJECTIONS;

export interface DepositTerms {
  escrow: string; // lower-case contract address
  missionKey: string; // 0x keccak256(bytes(mission_id)), lower-case
  token: string; // lower-case token address
  reward: bigint;
  spamFee: bigint;
  /** Unix seconds the deposit's refund-after must reach (contract v2); null: any. */
  refundAfter: number | null;
}

/**
 * A rejection with `log` set consumed one of the escrow's own logs for this mission key: money
 * sits in a slot of the contract and must be recorded (and refunded). Without `log`, the
 * transaction never touched this mission's escrow and nothing is recorded.
 */
export type DepositCheck = { ok: true; log: FundedLog } | { ok: false; reason: DepositRejection; log?: FundedLog };

/** The escrow's own rule for one Funded log of this mission's key: token, amount, spam fee. */
export function checkFundedLog(log: FundedLog, terms: DepositTerms): DepositCheck {
  if (log.token !== terms.token) return { ok: false, reason: "token_not_allowed", log };
  if (log.amount < terms.reward) return { ok: false, reason: "amount_short", log };
  if (log.spamFee < terms.spamFee) return { ok: false, reason: "spam_fee_short", log };
  if (terms.refundAfter !== null && log.refundAfter < BigInt(terms.refundAfter))
    return { ok: false, reason: "refund_after_short", log };
  return { ok: true, log };
}

/** A funding transaction's receipt against a mission's terms: the first Funded log for the key decides. */
export function checkDepositReceipt(receipt: TxReceipt | null, terms: DepositTerms): DepositCheck {
  if (!receipt) return { ok: false, reason: "tx_not_found" };
  if (receipt.status !== "success") return { ok: false, reason: "tx_failed" };
  const ours = receipt.funded.filter((l) => l.address === terms.escrow);
  if (ours.length === 0) return { ok: false, reason: receipt.funded.length > 0 ? "wrong_contract" : "no_funded_log" };
  const log = ours.find((l) => l.missionKey.toLowerCase() === terms.missionKey);
  if (!log) return { ok: false, reason: "wrong_mission_key" };
  return checkFundedLog(log, terms);
}

/** The terms a deposit of this mission must meet (its escrow record, its reward and spam fee). */
export function missionTerms(
  chain: Pick<BaseChain, "escrow">,
  { mission: m, escrow: e }: { mission: { rewardAmount: string; spamFee: string }; escrow: EscrowRecord },
): DepositTerms {
  // A mission created against another contract than the one configured now is judged by its own.
  return {
    escrow: e.contract ?? chain.escrow,
    missionKey: e.mission_key,
    token: e.token,
    reward: BigInt(m.rewardAmount),
    spamFee: BigInt(m.spamFee),
    refundAfter: e.refund_after ?? null,
  };
}
