import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { money, ts, timestamps, equals, isSet, oneOf } from "./types";
import { CHAIN_PAYOUT_KINDS, CHAIN_PAYOUT_STATES, DEPOSIT_STATUSES } from "../vocabulary";

// The base rail (AIP-1 §6, docs/design.md "Escrow and settlement"): deposits found on chain, the
// payouts the resolver sends, its nonces, and the watcher's scan position.

/**
 * One `Funded` log of the escrow contract, bound to the mission whose key it names. A log is
 * consumed once: (chain_id, tx_hash, log_index) is unique, so a reused deposit answers 409.
 * status: pending (in a block, not deep enough) → confirmed (opened the mission) → final;
 * reorged (its block left the chain before it was final); rejected (reason says why).
 */
export const escrowDeposits = pgTable(
  "escrow_deposits",
  {
    id: text("id").primaryKey(), // dep_<ulid>
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash").notNull(), // lower-case 0x
    logIndex: integer("log_index").notNull(),
    missionId: text("mission_id").notNull(),
    // A top-up's own slot (mission_amendments; key keccak256(bytes(amendment id))); null for the
    // mission's own deposit.
    amendmentId: text("amendment_id"),
    funder: text("funder").notNull(),
    token: text("token").notNull(),
    amount: money("amount").notNull(),
    spamFee: money("spam_fee").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    // The contract holding the slot (lower-case): the configured escrow, or a retired one still
    // followed (docs/base-rail.md "Migrating to a new escrow"); null on rows older than the column
    // that no mission record named: the configured escrow.
    escrowAddress: text("escrow_address"),
    // The funder took the slot back itself (SelfRefunded or Reclaimed log, block): no longer held.
    exitedBy: text("exited_by"),
    exitedBlock: bigint("exited_block", { mode: "number" }),
    status: text("status", { enum: DEPOSIT_STATUSES }).notNull(),
    reason: text("reason"),
    // The watcher looks at a live deposit again after this time; null once final or rejected.
    nextCheckAt: ts("next_check_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("escrow_deposits_log_uq").on(t.chainId, t.txHash, t.logIndex),
    // A mission is backed by at most one live deposit of its own key (top-ups have their own
    // slots, one live deposit per amendment): the indexes decide concurrent attaches.
    uniqueIndex("escrow_deposits_live_mission_uq")
      .on(t.missionId)
      .where(sql`${t.status} in ('pending', 'confirmed', 'final') and ${t.amendmentId} is null`),
    uniqueIndex("escrow_deposits_live_amendment_uq")
      .on(t.amendmentId)
      .where(sql`${t.status} in ('pending', 'confirmed', 'final') and ${t.amendmentId} is not null`),
    index("escrow_deposits_due_idx").on(t.nextCheckAt).where(isSet(t.nextCheckAt)),
    // Live deposits by block: the watcher only reads those at the confirmation or finality depth.
    index("escrow_deposits_live_block_idx")
      .on(t.status, t.blockNumber)
      .where(sql`${t.status} in ('pending', 'confirmed')`),
    check("escrow_deposits_status_ck", oneOf(t.status, DEPOSIT_STATUSES)),
  ],
);

export interface PayoutRecipient {
  address: string;
  amount: string;
  submission_id?: string;
}
export interface PayoutAdminAction {
  action: "retry" | "fail" | "convert";
  reason: string;
  from_state: string;
  at: string;
}
export interface PayoutAttempt {
  tx_hash: string;
  nonce: number;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  gas: string;
  at: string;
  /** The delayed path's transaction this attempt belongs to (propose | execute); absent: the payout's one transaction. */
  step?: PayoutStep;
}
/** The delayed release path's two transactions (docs/base-rail.md "Release paths"). */
export type PayoutStep = "propose" | "execute";

/**
 * A release or refund the resolver sends for one deposit (at most one payout per deposit, and
 * one release per mission: the database is the first line against paying twice, the contract's
 * once-per-key rule the last). state: queued → broadcast → confirmed → final; pending_gas when the
 * resolver's ETH cannot cover gas; failed with a reason. raw_tx is the signed transaction of the
 * current attempt, stored before it is sent, so a crash between commit and send re-sends the same
 * bytes (same hash) instead of signing a second transaction.
 */
export const chainPayouts = pgTable(
  "chain_payouts",
  {
    id: text("id").primaryKey(), // pay_<ulid>
    missionId: text("mission_id").notNull(),
    depositId: text("deposit_id").notNull(),
    kind: text("kind", { enum: CHAIN_PAYOUT_KINDS }).notNull(),
    chainId: integer("chain_id").notNull(),
    missionKey: text("mission_key").notNull(),
    // The contract the payout is sent to: its deposit's (null on old rows: the configured escrow).
    escrowAddress: text("escrow_address"),
    funder: text("funder").notNull(),
    token: text("token").notNull(),
    asset: text("asset").notNull(),
    recipients: jsonb("recipients").notNull().$type<PayoutRecipient[]>(),
    fee: money("fee").notNull(),
    amount: money("amount").notNull(), // everything this payout moves out of the deposit
    state: text("state", { enum: CHAIN_PAYOUT_STATES }).notNull(),
    reason: text("reason"),
    nonce: integer("nonce"),
    txHash: text("tx_hash"), // the current attempt
    rawTx: text("raw_tx"),
    attempts: jsonb("attempts").notNull().$type<PayoutAttempt[]>().default([]),
    minedTxHash: text("mined_tx_hash"),
    blockNumber: bigint("block_number", { mode: "number" }),
    blockHash: text("block_hash"),
    broadcastAt: ts("broadcast_at"),
    confirmedAt: ts("confirmed_at"),
    // Wei the resolver paid for the mined transaction (gasUsed × effectiveGasPrice), set at the
    // confirmation depth, cleared on a reorg: GET /metrics oabp_resolver_gas_spent_wei.
    gasSpentWei: money("gas_spent_wei"),
    finalAt: ts("final_at"),
    nextCheckAt: ts("next_check_at"),
    // Consecutive checks that changed nothing (outage, retryable revert): this row's own backoff.
    retries: integer("retries").notNull().default(0),
    // Release paths (docs/base-rail.md "Release paths"): the funder's EIP-712 signature (path 1,
    // releaseSigned), else the delayed path's current transaction, step propose → execute (path
    // 2); null for a refund or a signed release. proposal_tx_hash / executable_at: the mined
    // proposal and the chain time from which anyone may execute it.
    releaseSignature: text("release_signature"),
    step: text("step", { enum: ["propose", "execute"] }),
    proposalTxHash: text("proposal_tx_hash"),
    executableAt: ts("executable_at"),
    // Operator actions on this payout (retry, fail, convert), newest last, at most 20: the audit trail.
    adminActions: jsonb("admin_actions").notNull().$type<PayoutAdminAction[]>().default([]),
    // The server's signed decision of this plan (docs/custody.md "Signed decisions"): ed25519 with
    // the receipt key, which the database never holds; the worker sends nothing it does not verify.
    decision: jsonb("decision").$type<Record<string, unknown>>(),
    ...timestamps(),
  },
  (t) => [
    // The finality pass: confirmed payouts by block, outside the work batch.
    index("chain_payouts_confirmed_idx").on(t.blockNumber).where(equals(t.state, "confirmed")),
    uniqueIndex("chain_payouts_deposit_uq").on(t.depositId),
    // One release per escrow key: the mission's own, and one per top-up slot.
    uniqueIndex("chain_payouts_release_uq").on(t.missionId, t.missionKey).where(equals(t.kind, "release")),
    index("chain_payouts_due_idx").on(t.nextCheckAt).where(isSet(t.nextCheckAt)),
    index("chain_payouts_mission_idx").on(t.missionId),
    // A chain movement or proposal is judged against the payouts of its slot (custody.judge.ts).
    index("chain_payouts_slot_idx").on(t.missionKey, t.funder),
    // AIP-4 §8.2 treasury_health: is any payout waiting for resolver gas (escrow.treasury-health.ts).
    index("chain_payouts_pending_gas_idx").on(t.id).where(equals(t.state, "pending_gas")),
    check("chain_payouts_state_ck", oneOf(t.state, CHAIN_PAYOUT_STATES)),
    check("chain_payouts_kind_ck", oneOf(t.kind, CHAIN_PAYOUT_KINDS)),
    check("chain_payouts_step_ck", sql`${t.step} is null or ${t.step} in ('propose', 'execute')`),
  ],
);

/** The resolver's next nonce per chain: allocated under this row's lock, so two servers never sign two transactions with one nonce. */
export const chainAccounts = pgTable(
  "chain_accounts",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    nextNonce: integer("next_nonce").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

/** Where the escrow watcher's log scan resumes (the first block not yet known final-scanned). */
export const chainCursors = pgTable(
  "chain_cursors",
  {
    chainId: integer("chain_id").notNull(),
    name: text("name").notNull(),
    nextBlock: bigint("next_block", { mode: "number" }).notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.name] })],
);

/**
 * Heartbeat of each base-rail worker (the watcher, the settlement worker), shared by every
 * process: /treasury reports real worker health from here, not from the API process's memory.
 */
export const chainWorkers = pgTable(
  "chain_workers",
  {
    chainId: integer("chain_id").notNull(),
    name: text("name").notNull(), // watcher | settlement
    lastRunAt: ts("last_run_at").notNull(),
    lastOkAt: ts("last_ok_at"),
    lastError: text("last_error"),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.name] })],
);

/**
 * Every escrow log that is not funding or settlement (docs/base-rail.md "Exits and governance"):
 * exits (SelfRefunded, Reclaimed), pull credits (Credited, Withdrawn) and governance (roles,
 * proposals, pauses, treasury, fee cap, sweeps, delayed releases), per contract, at the
 * confirmation depth. args: the decoded arguments, bigints as decimal strings.
 */
export const chainEvents = pgTable(
  "chain_events",
  {
    chainId: integer("chain_id").notNull(),
    contract: text("contract").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    name: text("name").notNull(),
    args: jsonb("args").notNull().$type<Record<string, unknown>>(),
    // Seconds since the epoch of the block (proposals' effect times are compared with it).
    blockTime: bigint("block_time", { mode: "number" }),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.txHash, t.logIndex] }),
    index("chain_events_contract_idx").on(t.chainId, t.contract, t.blockNumber),
    index("chain_events_name_idx").on(t.name),
  ],
);
