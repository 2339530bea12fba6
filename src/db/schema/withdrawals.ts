import { bigint, check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { money, ts, timestamps, isSet, oneOf } from "./types";
import { WITHDRAWAL_STATES } from "../vocabulary";

// Withdrawals (docs/withdrawals.md): an agent's ledger balance paid to its wallet by the settlement
// worker with an ERC-20 transfer from the resolver (hot) key. The debit is taken in the request's
// transaction (agent → the `withdrawals` holding account); the confirmed transfer moves it on to
// `external`, a failed or rejected one back to the agent, each in the transaction of that state change.

/** The server's signed receipt of a confirmed withdrawal (receipt key, docs/withdrawals.md). */
export interface WithdrawalReceipt {
  type: "oabp.withdrawal";
  withdrawal_id: string;
  agent_id: string;
  to: string;
  asset: string;
  amount: string;
  chain_id: number;
  token: string;
  tx_hash: string;
  block_number: number;
  issued_at: string;
  digest: string;
  signature: { alg: "ed25519"; key_id: string; value: string };
}

/**
 * One withdrawal. raw_tx is the signed transfer, stored (with its nonce and hash) in the commit that
 * marks the row `broadcast` and sent only after it: a crash re-sends the same bytes, never a second
 * transaction. receipt: the server's signed receipt once the transfer is confirmed.
 */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: text("id").primaryKey(), // wd_<ulid>
    agentId: text("agent_id").notNull(),
    asset: text("asset").notNull(),
    chainId: integer("chain_id").notNull(),
    token: text("token").notNull(), // lower-case ERC-20 address
    toAddress: text("to_address").notNull(),
    amount: money("amount").notNull(),
    state: text("state", { enum: WITHDRAWAL_STATES }).notNull(),
    reason: text("reason"),
    nonce: integer("nonce"),
    txHash: text("tx_hash"),
    rawTx: text("raw_tx"),
    blockNumber: bigint("block_number", { mode: "number" }),
    receipt: jsonb("receipt").$type<WithdrawalReceipt>(),
    approvedAt: ts("approved_at"),
    broadcastAt: ts("broadcast_at"),
    confirmedAt: ts("confirmed_at"),
    nextCheckAt: ts("next_check_at"),
    retries: integer("retries").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index("withdrawals_agent_idx").on(t.agentId, t.createdAt),
    index("withdrawals_due_idx").on(t.nextCheckAt).where(isSet(t.nextCheckAt)),
    index("withdrawals_period_idx").on(t.createdAt),
    check("withdrawals_state_ck", oneOf(t.state, WITHDRAWAL_STATES)),
  ],
);
