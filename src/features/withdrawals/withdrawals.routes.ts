import { z } from "@hono/zod-openapi";
import { operatorOnly, routes, signedIn } from "../../http/route";
import { WITHDRAWAL_STATES } from "../../db/vocabulary";
import { Uint } from "../../http/wire";

const route = routes("withdrawals");

const SignedWithdrawalReceipt = z
  .object({
    type: z.literal("oabp.withdrawal"),
    withdrawal_id: z.string(),
    agent_id: z.string(),
    to: z.string(),
    asset: z.string(),
    amount: z.string(),
    chain_id: z.number().int(),
    token: z.string(),
    tx_hash: z.string(),
    block_number: z.number().int(),
    issued_at: z.string(),
    digest: z.string(),
    signature: z.object({ alg: z.literal("ed25519"), key_id: z.string(), value: z.string() }),
  })
  .openapi("SignedWithdrawalReceipt");

export const Withdrawal = z
  .object({
    id: z.string(),
    agent_id: z.string(),
    asset: z.string(),
    amount: z.string(),
    to: z.string(),
    chain_id: z.number().int(),
    token: z.string(),
    state: z.enum(WITHDRAWAL_STATES),
    reason: z.string().nullable(),
    tx_hash: z.string().nullable(),
    block_number: z.number().int().nullable(),
    receipt: SignedWithdrawalReceipt.nullable().openapi({ description: "the server's signed receipt once confirmed" }),
    created_at: z.string(),
    updated_at: z.string(),
    confirmed_at: z.string().nullable(),
  })
  .openapi("Withdrawal");

export const WithdrawalRequest = z
  .object({
    asset: z.string().min(1).max(64).default("USDC"),
    amount: Uint,
  })
  .openapi("WithdrawalRequest");

const WithdrawalList = z.object({ withdrawals: z.array(Withdrawal) }).openapi("WithdrawalList");
const Headers = z.object({ "idempotency-key": z.string().optional() });

/** A withdrawal under an Idempotency-Key: scoped to its agent, answered 201. */
export const withdrawOnce = (agent: string) => ({
  scope: `${agent} POST /agents/me/withdrawals`,
  answer: (w: unknown) => ({ status: 201, body: w }),
});

export const requestWithdrawalRoute = route.post(
  "/agents/me/withdrawals",
  "Withdraw ledger balance to the caller's own wallet on the base rail (docs/withdrawals.md)",
  {
    ...signedIn,
    description:
      "Debits the balance now and queues an ERC-20 transfer to the caller's address, paid by the settlement worker. " +
      "Over the per-agent or daily cap the withdrawal waits for the operator (state awaiting_approval).",
    in: { headers: Headers, body: WithdrawalRequest },
    ok: [201, Withdrawal, "Created: queued, or awaiting the operator's approval"],
    errors: [
      ["INVALID_PARAMETER", "not_positive"],
      [
        "UNPROCESSABLE",
        "asset_not_on_base",
        "balance_overflow",
        "base_rail_off",
        "idempotency_key_reused",
        "unknown_asset",
      ],
      "INSUFFICIENT_BALANCE",
      ["CONFLICT", "idempotency_in_flight"],
    ],
  },
);

export const listWithdrawalsRoute = route.get("/agents/me/withdrawals", "The caller's withdrawals, newest first", {
  ...signedIn,
  ok: [200, WithdrawalList, "Withdrawals"],
});

export const adminWithdrawalsRoute = routes("admin").get(
  "/admin/withdrawals",
  "Withdrawals, newest first, optionally of one state (admin token)",
  {
    ...operatorOnly,
    in: { query: z.object({ state: z.enum(WITHDRAWAL_STATES).optional() }) },
    ok: [200, WithdrawalList, "Withdrawals"],
  },
);

const WithdrawalParam = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "wd_01J..." }),
});
const Decision = z.object({ reason: z.string().max(200).optional() }).openapi("WithdrawalDecision");

const decisionRoute = (decision: "approve" | "reject", summary: string) =>
  routes("admin").post(`/admin/withdrawals/{id}/${decision}`, summary, {
    ...operatorOnly,
    in: { params: WithdrawalParam, body: Decision },
    ok: [200, Withdrawal, "The withdrawal after the decision"],
    errors: [
      ["NOT_FOUND", "unknown_withdrawal"],
      ["CONFLICT", "idempotency_in_flight", "not_awaiting_approval"],
      ["UNPROCESSABLE", "balance_overflow", "idempotency_key_reused"],
    ],
  });
export const approveWithdrawalRoute = decisionRoute(
  "approve",
  "Let a withdrawal over a cap be paid (admin token; only from awaiting_approval)",
);
export const rejectWithdrawalRoute = decisionRoute(
  "reject",
  "Refuse a withdrawal over a cap: its amount returns to the agent's balance (admin token)",
);
