import { and, eq } from "drizzle-orm";
import type { Hex } from "viem";
import { x402Payments } from "../../db/schema/index";
import { touchAgent } from "../../db/touch-agent";
import { AppError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { parseUint } from "../../lib/money";
import { agentOf, dbOf, withTx, type Ctx } from "../../lib/context";
import { agentAccount, balancesOf, EXTERNAL, transfer } from "../ledger";
import { requirementsOf, x402Rail, type X402Rail } from "./payments.rail";
import {
  checkPayment,
  paymentRequired,
  type PaymentRequired,
  type SettlementResponse,
  type VerifiedPayment,
  type X402Reason,
  isReason,
} from "./payments.x402";

type PaymentRow = typeof x402Payments.$inferSelect;

/** An authorization must still have this long to run when it is verified: the relay needs a block or two. */
const SETTLE_MARGIN_SECONDS = 30;

interface DepositWire {
  id: string;
  agent_id: string;
  asset: string;
  amount: string;
  status: "credited";
  network: string;
  payer: string;
  tx_hash: string | null;
  transfer_id: string | null;
  balance: string;
  replayed: boolean;
  created_at: string;
}

export type PaymentOutcome =
  | { kind: "payment_required"; required: PaymentRequired }
  | { kind: "paid"; deposit: DepositWire; settlement: SettlementResponse };

/** What the 402 names as the resource (HTTP: the route's URL; MCP: `mcp://tool/deposit`). */
export interface Resource {
  url: string;
  description: string;
}

const REVERT_REASONS: Record<string, X402Reason> = {
  AuthorizationExpired: "invalid_exact_evm_payload_authorization_valid_before",
  AuthorizationNotYetValid: "invalid_exact_evm_payload_authorization_valid_after",
  InvalidAuthorizationSignature: "invalid_exact_evm_payload_signature",
  ERC20InsufficientBalance: "insufficient_funds",
};

/**
 * POST /agents/me/deposits and the MCP `deposit` tool (docs/payments.md): without a payment, the
 * x402 requirements (402); with one, verified, recorded, settled by the relayer and credited to the
 * caller's balance once. The authorization (token, payer, nonce) is the payment's identity: a
 * replay by the same agent answers the first credit again (`replayed: true`) and credits nothing.
 */
export async function deposit(
  ctx: Ctx,
  input: { asset: string; amount: string; payment: unknown; resource: Resource },
): Promise<PaymentOutcome> {
  const rail = await x402Rail(ctx.deps, input.asset);
  const amount = parseUint(input.amount);
  const minimum = BigInt(rail.asset.spam_fee);
  if (amount < minimum || amount === 0n)
    throw new AppError("UNPROCESSABLE", `a deposit is at least ${minimum} base units (the relayer pays its gas)`, {
      field: "amount",
      reason: "deposit_below_minimum",
      minimum: minimum.toString(),
    });
  return pay(ctx, rail, { amount, payment: input.payment, resource: input.resource, purpose: "deposit" });
}

/**
 * What a fee-charging write lacks, paid in its own request (docs/payments.md "Fees paid in the
 * request"): exactly `amount`, verified, recorded, settled and credited as a deposit is (same table,
 * idempotency and recovery; purpose `mission_fee`). The write then debits the balance itself.
 */
export async function payShortfall(
  ctx: Ctx,
  input: { asset: string; amount: bigint; payment: unknown; resource: Resource },
): Promise<PaymentOutcome> {
  const rail = await x402Rail(ctx.deps, input.asset);
  return pay(ctx, rail, { ...input, purpose: "mission_fee" });
}

type Purpose = "deposit" | "mission_fee";

async function pay(
  ctx: Ctx,
  rail: X402Rail,
  input: { amount: bigint; payment: unknown; resource: Resource; purpose: Purpose },
): Promise<PaymentOutcome> {
  const caller = agentOf(ctx);
  const { amount, purpose } = input;
  const req = requirementsOf(rail, amount);
  const refuse = (reason: X402Reason): PaymentOutcome => ({
    kind: "payment_required",
    required: paymentRequired(req, { resource: input.resource, error: reason }),
  });
  if (input.payment === undefined || input.payment === null) return refuse("payment_required");
  const check = await checkPayment(input.payment, {
    requirements: req,
    nowSeconds: Math.floor(ctx.now.getTime() / 1000),
    settleMarginSeconds: SETTLE_MARGIN_SECONDS,
  });
  if (!check.ok) return refuse(check.reason);
  return recordAndSettle(ctx, rail, { payment: check.payment, caller, amount, refuse, purpose }).catch(
    (err: unknown) => {
      if (err instanceof AppError) throw err;
      // An RPC outage or a dying relay: a recorded payment is finished by the recovery job.
      throw new AppError("SERVICE_UNAVAILABLE", "the payment could not be settled now; retry the same request", {
        reason: "settlement_pending",
      });
    },
  );
}

async function recordAndSettle(
  ctx: Ctx,
  rail: X402Rail,
  a: {
    payment: VerifiedPayment;
    caller: string;
    amount: bigint;
    refuse: (r: X402Reason) => PaymentOutcome;
    purpose: Purpose;
  },
): Promise<PaymentOutcome> {
  const { payment, caller, amount, refuse, purpose } = a;
  const existing = await findPayment(ctx, rail, payment);
  if (existing) return again(ctx, rail, { row: existing, caller, amount, refuse });
  if ((await rail.relayer.tokenBalance(rail.token, payment.from)) < amount) return refuse("insufficient_funds");
  const row = await record(ctx, rail, { payment, caller, purpose });
  if (!row) return again(ctx, rail, { row: await reread(ctx, { payment, rail }), caller, amount, refuse });
  const settled = await settle(ctx, { rail, row });
  return finish(ctx, rail, { row: settled, refuse, replayed: !creditedHere.has(settled) });
}

/** The same authorization again: its first answer (same agent and amount), or refused. */
async function again(
  ctx: Ctx,
  rail: X402Rail,
  a: { row: PaymentRow; caller: string; amount: bigint; refuse: (r: X402Reason) => PaymentOutcome },
): Promise<PaymentOutcome> {
  if (a.row.agentId !== agentAccount(a.caller) || BigInt(a.row.amount) !== a.amount)
    return a.refuse("payment_already_used");
  const row = a.row.status === "verified" ? await settle(ctx, { rail, row: a.row }) : a.row;
  return finish(ctx, rail, { row, refuse: a.refuse, replayed: !creditedHere.has(row) });
}

async function finish(
  ctx: Ctx,
  rail: X402Rail,
  f: { row: PaymentRow; refuse: (r: X402Reason) => PaymentOutcome; replayed?: boolean },
): Promise<PaymentOutcome> {
  const { row } = f;
  if (row.status === "failed") return f.refuse(isReason(row.reason) ? row.reason : "invalid_transaction_state");
  if (row.status === "verified")
    throw new AppError("SERVICE_UNAVAILABLE", "the payment is recorded and still settling; retry the same request", {
      reason: "settlement_pending",
    });
  const balance = (await balancesOf(dbOf(ctx), row.agentId)).get(row.asset) ?? 0n;
  return {
    kind: "paid",
    settlement: { success: true, transaction: row.txHash ?? "", network: rail.network, payer: row.payer },
    deposit: {
      id: row.id,
      agent_id: row.agentId.replace(/^agent:/, ""),
      asset: row.asset,
      amount: row.amount,
      status: "credited",
      network: rail.network,
      payer: row.payer,
      tx_hash: row.txHash,
      transfer_id: row.transferId,
      balance: balance.toString(),
      replayed: f.replayed ?? false,
      created_at: row.createdAt.toISOString(),
    },
  };
}

async function findPayment(ctx: Ctx, rail: X402Rail, p: VerifiedPayment): Promise<PaymentRow | undefined> {
  const [row] = await dbOf(ctx)
    .select()
    .from(x402Payments)
    .where(
      and(
        eq(x402Payments.chainId, rail.chain.chainId),
        eq(x402Payments.token, rail.token.toLowerCase()),
        eq(x402Payments.payer, p.from.toLowerCase()),
        eq(x402Payments.nonce, p.nonce),
      ),
    );
  return row;
}

/**
 * Records the verified payment before anything is sent (the crash-safety of docs/payments.md
 * "Exactly once"). Locking: the unique authorization index; null when another request recorded it.
 * A payment-identifier already used by this payer for another authorization is a 409.
 */
async function record(
  ctx: Ctx,
  rail: X402Rail,
  { payment: p, caller, purpose }: { payment: VerifiedPayment; caller: string; purpose: Purpose },
): Promise<PaymentRow | null> {
  const payer = p.from.toLowerCase();
  if (p.paymentId !== null) {
    const [used] = await dbOf(ctx)
      .select({ id: x402Payments.id })
      .from(x402Payments)
      .where(and(eq(x402Payments.payer, payer), eq(x402Payments.paymentId, p.paymentId)));
    if (used)
      throw new AppError("CONFLICT", "this payment identifier was used for another payment", {
        reason: "payment_identifier_reused",
      });
  }
  const [row] = await dbOf(ctx)
    .insert(x402Payments)
    .values({
      id: newId("x402", ctx.now.getTime()),
      chainId: rail.chain.chainId,
      token: rail.token.toLowerCase(),
      payer,
      nonce: p.nonce,
      paymentId: p.paymentId,
      payTo: p.to.toLowerCase(),
      asset: rail.asset.symbol,
      amount: p.value.toString(),
      validAfter: Number(p.validAfter),
      validBefore: Number(p.validBefore),
      signature: p.signature,
      agentId: agentAccount(caller),
      purpose,
      status: "verified",
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/**
 * Settles a recorded payment: relays the authorization unless the token already used it, then
 * credits. A revert that proves the authorization unusable fails the row with the x402 reason;
 * an outage leaves it `verified` for the recovery job (payments.recover.ts).
 */
export async function settle(ctx: Ctx, { rail, row }: { rail: X402Rail; row: PaymentRow }): Promise<PaymentRow> {
  const { payer: from, nonce } = row;
  let txHash: Hex | null = null;
  if (!(await rail.relayer.authorizationUsed(rail.token, from, nonce))) {
    const auth = {
      from,
      to: row.payTo,
      value: BigInt(row.amount),
      validAfter: BigInt(row.validAfter),
      validBefore: BigInt(row.validBefore),
      nonce,
    };
    const sent = await rail.relayer.transferWithAuthorization(rail.token, auth, row.signature);
    if (sent.ok && sent.status === "success") txHash = sent.txHash;
    // Not ours: another relay (a concurrent request, the recovery job, anyone) may have used it.
    else if (!(await rail.relayer.authorizationUsed(rail.token, from, nonce)))
      return failPayment(ctx, {
        row,
        reason: sent.ok ? "invalid_transaction_state" : (REVERT_REASONS[sent.revert] ?? "invalid_transaction_state"),
      });
  }
  txHash ??= await rail.relayer.authorizationTx(rail.token, from, nonce);
  return credit(ctx, row, txHash);
}

export async function failPayment(
  ctx: Ctx,
  { row, reason }: { row: PaymentRow; reason: X402Reason },
): Promise<PaymentRow> {
  const [updated] = await dbOf(ctx)
    .update(x402Payments)
    .set({ status: "failed", reason, updatedAt: ctx.now })
    .where(and(eq(x402Payments.id, row.id), eq(x402Payments.status, "verified")))
    .returning();
  return updated ?? (await reread(ctx, { id: row.id }));
}

/** A row known to exist (recorded by this or a concurrent request). */
async function reread(
  ctx: Ctx,
  by: { id: string } | { payment: VerifiedPayment; rail: X402Rail },
): Promise<PaymentRow> {
  const row =
    "id" in by
      ? (await dbOf(ctx).select().from(x402Payments).where(eq(x402Payments.id, by.id)))[0]
      : await findPayment(ctx, by.rail, by.payment);
  if (!row)
    throw new AppError("CONFLICT", "the payment is being recorded by another request; retry", { reason: "in_flight" });
  return row;
}

/** The rows a credit() of this process returned having credited them (a request's `replayed: false`). */
const creditedHere = new WeakSet<PaymentRow>();

/**
 * The credit, once: external → the agent, hash-chained, the transaction hash as the entry's ref.
 * Locking: the payment row FOR UPDATE; only a `verified` row is credited, in the same transaction
 * that marks it `credited`.
 */
async function credit(ctx: Ctx, row: PaymentRow, txHash: Hex | null): Promise<PaymentRow> {
  return withTx(ctx, async (tx) => {
    const [locked] = await tx.select().from(x402Payments).where(eq(x402Payments.id, row.id)).for("update");
    if (locked?.status !== "verified") return locked ?? row;
    await touchAgent(tx, locked.agentId.replace(/^agent:/, ""), ctx.now, false);
    const { transferId } = await transfer(tx, {
      asset: locked.asset,
      kind: "x402_deposit",
      ref: txHash?.toLowerCase() ?? `x402:${locked.id}`,
      at: ctx.now,
      postings: [
        { account: EXTERNAL, amount: -BigInt(locked.amount) },
        { account: locked.agentId, amount: BigInt(locked.amount) },
      ],
    });
    const [done] = await tx
      .update(x402Payments)
      .set({ status: "credited", txHash: txHash?.toLowerCase() ?? null, transferId, updatedAt: ctx.now })
      .where(eq(x402Payments.id, locked.id))
      .returning();
    if (done) creditedHere.add(done);
    return done ?? locked;
  });
}
