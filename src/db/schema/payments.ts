import { bigint, check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { equals, money, oneOf, timestamps } from "./types";

/** An x402 payment's states (docs/payments.md "Exactly once"). */
export const X402_PAYMENT_STATUSES = ["verified", "credited", "failed"] as const;

// x402 payments the server settles itself (docs/payments.md): one row per EIP-3009 authorization,
// recorded (verified) before it is sent, so a crash between the transfer and the credit is found
// and credited by the worker; the authorization (token, payer, nonce) is unique, so a replay
// credits nothing.
export const x402Payments = pgTable(
  "x402_payments",
  {
    id: text("id").primaryKey(), // x402_<ulid>
    chainId: integer("chain_id").notNull(),
    token: text("token").notNull(), // lower-case 0x
    payer: text("payer").notNull(), // authorization.from, lower-case
    nonce: text("nonce").notNull(), // authorization.nonce, lower-case 0x + 64 hex
    // The payment-identifier extension's id, when the client sent one (idempotency across retries).
    paymentId: text("payment_id"),
    payTo: text("pay_to").notNull(),
    asset: text("asset").notNull(), // the ledger asset symbol credited
    amount: money("amount").notNull(),
    validAfter: bigint("valid_after", { mode: "number" }).notNull(),
    validBefore: bigint("valid_before", { mode: "number" }).notNull(),
    signature: text("signature").notNull(),
    // The ledger account credited, `agent:0x…`.
    agentId: text("agent_id").notNull(),
    purpose: text("purpose").notNull(), // deposit
    status: text("status", { enum: X402_PAYMENT_STATUSES }).notNull(),
    txHash: text("tx_hash"),
    transferId: text("transfer_id"),
    reason: text("reason"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("x402_payments_authorization_uq").on(t.chainId, t.token, t.payer, t.nonce),
    uniqueIndex("x402_payments_payment_id_uq").on(t.payer, t.paymentId),
    index("x402_payments_verified_idx").on(t.updatedAt).where(equals(t.status, "verified")),
    check("x402_payments_status_ck", oneOf(t.status, X402_PAYMENT_STATUSES)),
  ],
);
