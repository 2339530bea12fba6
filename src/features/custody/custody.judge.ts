import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { emitEvent, custodyAlertEvent } from "../../db/outbox";
import { MISSION_COLUMNS } from "../../db/rows";
import { chainPayouts, custodyAlerts, missions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { BaseChain, EscrowEvent } from "../../lib/base-chain";
import { checkDecision, type DecisionCheck, type DecisionPlan } from "../../lib/decision-sign";
import { paidRecipients, releasePaysPlan, type SlotMovement } from "../../lib/escrow-movements";
import { newId } from "../../lib/ids";
import { lockMission } from "../../db/mission-visibility";
import { markExited, onContract, slotOwner } from "./custody.exits";
import type { ChainCtx, TxCtx } from "../../lib/context";
import type { PayoutRow } from "../../db/rows";

// Custody (docs/custody.md): every on-chain movement and proposal of an escrow slot is judged
// against what the server decided — the payout rows of the slot whose signed decision verifies
// against the keys this process is configured with (decision-sign.ts), matched on the whole plan
// (recipients, amounts, fee, token). Anything else raises a custody alert in the transaction that
// sees it: one row (dedupe key), an error log line, a `custody.alert` event for the creator, the
// winners and every subscriber (webhooks, SSE /events, inbox), GET /transparency lists it and is
// not reconciled while it is open, GET /metrics counts it (oabp_custody_alerts_total).
//  - A release that pays another plan: the mission's payout fails `taken:unknown_recipient`; never
//    shown as paid. The slot no longer counts as held (the contract paid it out).
//  - A refund no decision asked for: the release fails `refunded_by_resolver`; not held either (no
//    false shortfall).
//  - A proposal of another plan: listed until the guardian cancels it, or the slot empties.

type AlertKind = (typeof custodyAlerts.$inferSelect)["kind"];
const UNMINED = ["queued", "pending_gas", "broadcast"] as const;

/** The plan a payout row would send, in decision form. */
function decisionPlanOf(p: PayoutRow, chain: Pick<BaseChain, "escrow">): DecisionPlan {
  return {
    payout_id: p.id,
    mission_id: p.missionId,
    kind: p.kind,
    chain_id: p.chainId,
    escrow: p.escrowAddress ?? chain.escrow,
    mission_key: p.missionKey,
    funder: p.funder,
    token: p.token,
    recipients: p.recipients.map((r) => ({ address: r.address, amount: r.amount })),
    fee: p.fee,
  };
}

/** The row's decision, verified against the configured receipt keys (never keys from the database) and the row's plan. */
export const verifiedDecision = (
  { deps, chain }: { deps: Deps; chain: Pick<BaseChain, "escrow"> },
  p: PayoutRow,
): DecisionCheck => checkDecision(p.decision, deps.receiptKeys.published, decisionPlanOf(p, chain));

interface NewAlert {
  kind: AlertKind;
  contract: string;
  missionId: string | null;
  missionKey: string;
  funder: string;
  /** What makes this finding one: a transaction, a proposal, a payout and reason. */
  of: string;
  payoutId?: string | null;
  txHash?: string | null;
  blockNumber?: number | null;
  detail: Record<string, unknown>;
  /** Announce it again even when already recorded (a payout just failed because of it: news to its winners). */
  announce?: boolean;
}

/** Records the alert once (dedupe key); on first sight logs it and emits `custody.alert`. True when new. */
export async function raiseAlert(ctx: TxCtx & ChainCtx, a: NewAlert): Promise<boolean> {
  const { tx, deps, chain, now } = ctx;
  const dedupeKey = `${a.kind}:${a.contract}:${a.missionKey}:${a.funder}:${a.of}`;
  const id = newId("alrt", now.getTime());
  const inserted = await tx
    .insert(custodyAlerts)
    .values({
      id,
      dedupeKey,
      kind: a.kind,
      chainId: chain.chainId,
      contract: a.contract,
      missionId: a.missionId,
      missionKey: a.missionKey,
      funder: a.funder,
      payoutId: a.payoutId ?? null,
      txHash: a.txHash ?? null,
      blockNumber: a.blockNumber ?? null,
      detail: a.detail,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: custodyAlerts.id });
  if (inserted.length === 0 && !a.announce) return false;
  const [row] = inserted.length
    ? inserted
    : await tx.select({ id: custodyAlerts.id }).from(custodyAlerts).where(eq(custodyAlerts.dedupeKey, dedupeKey));
  const alertId = row?.id ?? id;
  deps.logger.error(
    { alert: alertId, kind: a.kind, mission: a.missionId, contract: a.contract, tx: a.txHash, detail: a.detail },
    'custody: an escrow movement no signed decision explains (docs/runbooks.md "Custody alert")',
  );
  if (a.missionId) await announceAlert(ctx, alertId, { ...a, missionId: a.missionId });
  return inserted.length > 0;
}

/** `custody.alert` to the mission's creator and winners (webhooks, SSE, inbox). */
async function announceAlert(
  ctx: TxCtx & ChainCtx,
  alertId: string,
  a: NewAlert & { missionId: string },
): Promise<void> {
  const { tx, now } = ctx;
  const [m] = await tx.select(MISSION_COLUMNS).from(missions).where(eq(missions.id, a.missionId));
  if (!m) return;
  const [release] = await tx
    .select({ recipients: chainPayouts.recipients })
    .from(chainPayouts)
    .where(and(eq(chainPayouts.missionId, m.id), eq(chainPayouts.kind, "release")));
  const winners = (release?.recipients ?? (m.winnerAgentId ? [{ address: m.winnerAgentId }] : [])).map((r) => ({
    agent_id: r.address,
  }));
  await emitEvent(
    tx,
    custodyAlertEvent(m, now, {
      alert_id: alertId,
      kind: a.kind,
      contract: a.contract,
      mission_key: a.missionKey,
      funder: a.funder,
      tx_hash: a.txHash ?? null,
      payout_id: a.payoutId ?? null,
      winners,
      ...a.detail,
    }),
  );
}

/** Open alerts of one slot of `kind` are resolved (`resolution` says how). */
async function resolveAlerts(
  { tx, now }: TxCtx & ChainCtx,
  slot: {
    contract: string;
    missionKey: string;
    funder: string;
    kind: AlertKind;
    resolution: string;
    proposalHash?: string;
  },
): Promise<void> {
  await tx
    .update(custodyAlerts)
    .set({ resolvedAt: now, resolution: slot.resolution })
    .where(
      and(
        eq(custodyAlerts.contract, slot.contract),
        eq(custodyAlerts.missionKey, slot.missionKey),
        eq(custodyAlerts.funder, slot.funder),
        eq(custodyAlerts.kind, slot.kind),
        isNull(custodyAlerts.resolvedAt),
        slot.proposalHash ? sql`${custodyAlerts.detail}->>'proposal_hash' = ${slot.proposalHash}` : undefined,
      ),
    );
}

/** The payouts of one slot on one contract (every kind and state). */
function slotPayouts({ tx, chain }: TxCtx & ChainCtx, s: { contract: string; missionKey: string; funder: string }) {
  return tx
    .select()
    .from(chainPayouts)
    .where(
      and(
        eq(chainPayouts.chainId, chain.chainId),
        eq(chainPayouts.missionKey, s.missionKey),
        eq(chainPayouts.funder, s.funder),
        onContract(chain, { column: chainPayouts.escrowAddress, contract: s.contract }),
      ),
    );
}

/**
 * A Released or Refunded of a slot this server issued, judged (watcher at the confirmation depth,
 * and the worker before it adopts a release it did not send). True when a decision explains it.
 */
export async function judgeMovement(ctx: TxCtx & ChainCtx, mv: SlotMovement): Promise<boolean> {
  const { tx, deps, chain } = ctx;
  const owner = await slotOwner(tx, mv.missionKey);
  if (!owner) return true; // a key this server never issued: not its custody
  // Locking: mission row → its deposit rows → their payout rows (escrow README lock order).
  const m = await lockMission(tx, owner.missionId);
  if (!m) return true;
  const slot = { contract: mv.contract, missionKey: mv.missionKey, funder: mv.funder };
  const payouts = await slotPayouts(ctx, slot);
  const decided = payouts.flatMap((p) => {
    const v = verifiedDecision({ deps, chain }, p);
    return v.ok ? [{ p, d: v.decision }] : [];
  });
  const explained =
    mv.kind === "release"
      ? decided.some(({ d }) => d.kind === "release" && releasePaysPlan(mv, d))
      : decided.some(({ d }) => d.kind === "refund");
  if (!explained) await recordUnexplained(ctx, { mv, mission: m, owner, payouts });
  // Whatever moved, the slot is empty: a proposal on it can no longer pay.
  const gone = mv.kind === "release" ? "slot_released" : "slot_refunded";
  await resolveAlerts(ctx, { ...slot, kind: "foreign_proposal", resolution: gone });
  return explained;
}

type Owner = NonNullable<Awaited<ReturnType<typeof slotOwner>>>;
type LockedMission = NonNullable<Awaited<ReturnType<typeof lockMission>>>;
type SlotPayout = Awaited<ReturnType<typeof slotPayouts>>[number];

/**
 * A movement no decision explains: the slot is no longer held (no false shortfall), the mission's
 * release fails with what happened, and the alert is raised (announced again when a payout failed).
 */
async function recordUnexplained(
  ctx: TxCtx & ChainCtx,
  { mv, mission: m, owner, payouts }: { mv: SlotMovement; mission: LockedMission; owner: Owner; payouts: SlotPayout[] },
): Promise<void> {
  const { tx, now } = ctx;
  const slot = { contract: mv.contract, missionKey: mv.missionKey, funder: mv.funder };
  const kind: AlertKind = mv.kind === "release" ? "foreign_release" : "resolver_refund";
  const reason = mv.kind === "release" ? "taken:unknown_recipient" : "refunded_by_resolver";
  await markExited(ctx, {
    ev: {
      contract: mv.contract,
      name: mv.kind === "release" ? "Released:unexplained" : "Refunded:unexplained",
      blockNumber: mv.blockNumber,
    } as EscrowEvent,
    funder: mv.funder,
    ...owner,
  });
  const release = payouts.find((p) => p.kind === "release");
  const failed = release
    ? await tx
        .update(chainPayouts)
        .set({ state: "failed", reason, nextCheckAt: null, updatedAt: now })
        .where(and(eq(chainPayouts.id, release.id), inArray(chainPayouts.state, [...UNMINED, "confirmed"])))
        .returning({ id: chainPayouts.id })
    : [];
  if (failed.length && m.escrow?.deposit?.id === release?.depositId)
    await tx
      .update(missions)
      .set({ payoutStatus: "failed", payoutStatusReason: reason, payoutStatusUpdatedAt: now, updatedAt: now })
      .where(eq(missions.id, m.id));
  await raiseAlert(ctx, {
    kind,
    ...slot,
    missionId: m.id,
    of: mv.txHash,
    payoutId: release?.id ?? null,
    announce: failed.length > 0,
    txHash: mv.txHash,
    blockNumber: mv.blockNumber,
    detail: {
      reason,
      token: mv.token,
      recipients: mv.kind === "release" ? paidRecipients(mv) : [{ address: mv.funder, amount: mv.paid.toString() }],
      fee: mv.fee.toString(),
      decided: release ? release.recipients.map((r) => ({ address: r.address, amount: r.amount })) : null,
    },
  });
}

/** A ReleaseProposed of a slot this server issued: explained only by a verified decision of that exact plan. */
export async function judgeProposal(ctx: TxCtx & ChainCtx, ev: EscrowEvent): Promise<void> {
  const { tx, deps, chain } = ctx;
  const missionKey = String(ev.args.missionKey).toLowerCase();
  const funder = String(ev.args.funder).toLowerCase();
  const proposalHash = String(ev.args.proposalHash).toLowerCase();
  const owner = await slotOwner(tx, missionKey);
  if (!owner) return;
  const payouts = await slotPayouts(ctx, { contract: ev.contract, missionKey, funder });
  const explained = payouts.some((p) => {
    const v = verifiedDecision({ deps, chain }, p);
    return v.ok && v.decision.proposal_hash === proposalHash;
  });
  if (explained) return;
  const recipients = (ev.args.recipients as string[]) ?? [];
  const amounts = (ev.args.amounts as string[]) ?? [];
  await raiseForeignProposal(ctx, {
    contract: ev.contract,
    missionId: owner.missionId,
    missionKey,
    funder,
    proposalHash,
    executableAt: Number(ev.args.executableAt),
    txHash: ev.txHash,
    blockNumber: ev.blockNumber,
    recipients: recipients.map((a, i) => ({ address: String(a).toLowerCase(), amount: String(amounts[i] ?? "0") })),
    fee: String(ev.args.fee),
    payoutId: payouts.find((p) => p.kind === "release")?.id ?? null,
  });
}

/** One foreign proposal (the watcher's log, or the worker's proposalOf read): one alert per proposal. */
export function raiseForeignProposal(
  ctx: TxCtx & ChainCtx,
  f: {
    contract: string;
    missionId: string;
    missionKey: string;
    funder: string;
    proposalHash: string;
    executableAt: number;
    txHash?: string | null;
    blockNumber?: number | null;
    recipients?: { address: string; amount: string }[] | null;
    fee?: string | null;
    payoutId?: string | null;
  },
): Promise<boolean> {
  return raiseAlert(ctx, {
    kind: "foreign_proposal",
    contract: f.contract,
    missionId: f.missionId,
    missionKey: f.missionKey,
    funder: f.funder,
    of: `${f.proposalHash}:${f.executableAt}`,
    payoutId: f.payoutId ?? null,
    txHash: f.txHash ?? null,
    blockNumber: f.blockNumber ?? null,
    detail: {
      reason: "foreign_proposal",
      proposal_hash: f.proposalHash,
      executable_at: new Date(f.executableAt * 1000).toISOString(),
      recipients: f.recipients ?? null,
      fee: f.fee ?? null,
    },
  });
}

/** A guardian's ReleaseCancelled: the foreign proposal it names is resolved. */
export async function proposalCancelled(ctx: TxCtx & ChainCtx, ev: EscrowEvent): Promise<void> {
  await resolveAlerts(ctx, {
    contract: ev.contract,
    missionKey: String(ev.args.missionKey).toLowerCase(),
    funder: String(ev.args.funder).toLowerCase(),
    kind: "foreign_proposal",
    resolution: `cancelled:${ev.txHash}`,
    proposalHash: String(ev.args.proposalHash).toLowerCase(),
  });
}

/** Runs `f` in a transaction with the chain context (the worker's entry into the judgements above). */
export function inCustodyTx<T>(
  { deps, chain }: Pick<ChainCtx, "deps" | "chain">,
  f: (ctx: TxCtx & ChainCtx) => Promise<T>,
): Promise<T> {
  return deps.database.db.transaction((tx) => f({ tx, deps, chain, now: deps.clock.now() }));
}
