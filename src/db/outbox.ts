import { sql } from "drizzle-orm";
import type { Database, Tx } from "./client";
import { webhookEvents } from "./schema";
import { insertRows } from "./insert-rows";
import { newId } from "../lib/ids";
import type { EventData, EventType } from "../lib/webhook-events";
import type { MissionRow as Mission } from "./rows";
import type { AwardRecord } from "./schema/missions";

// The transactional outbox (docs/design.md "Security and reliability": every state change in one
// transaction with its outbox row). Emitters call these with the transaction that makes the
// change, so a rolled-back change leaves no event and a committed one always has its event;
// delivery happens later, from committed rows only (src/jobs/webhooks.ts).

/** What subscription filters match on; immutable for a mission's life. */
type MissionAttrs = Pick<Mission, "id" | "creator" | "verificationType" | "tags">;

export interface OutboxEvent {
  type: EventType;
  at: Date;
  mission: MissionAttrs;
  data: EventData;
}

/** NOTIFY channel of the event hubs (src/features/events): events were committed, or numbered. */
export const EVENTS_CHANNEL = "oabp_events";

/** Transactions that emitted events: their commit wakes the event hubs (wakeEventHubs). */
const emitted = new WeakSet<Tx>();

/** Inserts the events in the caller's transaction. Ids are time-ordered (evt_<ULID>) in emit order. */
export async function emitEvents(tx: Tx, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  emitted.add(tx);
  await insertRows(tx, webhookEvents, events.map(eventRow));
}

/** The outbox row of an event (a write function inserts it itself: see `emittedIn`). */
export function eventRow(e: OutboxEvent): typeof webhookEvents.$inferInsert {
  return {
    id: newId("evt", e.at.getTime()),
    type: e.type,
    occurredAt: e.at,
    missionId: e.mission.id,
    creator: e.mission.creator,
    verificationType: e.mission.verificationType,
    tags: e.mission.tags,
    data: JSON.stringify(e.data),
  };
}

/** `tx` inserted outbox rows through a write function: its commit wakes the event hubs too. */
export const emittedIn = (tx: Tx): void => void emitted.add(tx);

export const emitEvent = (tx: Tx, event: OutboxEvent): Promise<void> => emitEvents(tx, [event]);

/** Per database handle: a wake in flight, and whether another commit asked for one meanwhile. */
const waking = new WeakMap<Database, { again: boolean }>();

/**
 * Called after `tx` committed, or after a write function's own statement that emitted events
 * ("emitted"): when events were emitted, every instance's event hub is woken
 * (docs/decisions/storage.md "Commits without NOTIFY"). The NOTIFY is a statement of its own, not part of
 * the write: it writes nothing, so its commit waits for no WAL flush and holds the database's
 * notify lock only for an instant. Not awaited; one in flight per handle, and the commits that
 * arrive meanwhile share one more. A lost wake costs the hubs' poll interval, nothing else.
 */
export function wakeEventHubs(database: Database, tx: Tx | "emitted"): void {
  if (tx !== "emitted" && !emitted.has(tx)) return;
  const running = waking.get(database);
  if (running) {
    running.again = true;
    return;
  }
  const state = { again: false };
  waking.set(database, state);
  const send = async (): Promise<void> => {
    do {
      state.again = false;
      await database.db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, '')`);
    } while (state.again);
  };
  void send()
    .catch(() => undefined)
    .finally(() => waking.delete(database));
}

// ---- event builders: public fields only (see src/lib/webhook-events.ts) ----

/** The fields every mission.* event opens with, in their wire order. */
const missionHead = (m: Mission, status: string) => ({
  mission_id: m.id,
  creator: m.creator,
  status,
  verification_type: m.verificationType,
});

const reward = (m: Mission) => ({ asset: m.rewardAsset, amount: m.rewardAmount, chain: m.rewardChain });

/** The envelope every builder returns: the filters' mission attributes travel beside the data. */
const event = (type: EventType, m: MissionAttrs, at: Date, data: EventData): OutboxEvent => ({
  type,
  at,
  mission: m,
  data,
});

export function missionCreated(m: Mission, at: Date): OutboxEvent {
  return event("mission.created", m, at, {
    ...missionHead(m, m.status),
    reward: reward(m),
    deadline: m.deadline.toISOString(),
    tags: m.tags,
    created_at: m.createdAt.toISOString(),
  });
}

/**
 * `mission.created` for a mission that has just become publicly visible. Only `open` missions
 * qualify: a `pending_escrow` mission is visible to its creator alone, so the escrow code calls
 * this in the transaction that opens it (deposit confirmed), with the row as it is once open.
 */
export async function emitMissionCreated(tx: Tx, m: Mission, at: Date): Promise<void> {
  if (m.status !== "open")
    throw new Error(`mission.created is only emitted for open missions (${m.id} is ${m.status})`);
  await emitEvent(tx, missionCreated(m, at));
}

export function missionResolved(
  m: Mission,
  at: Date,
  r: {
    reason: string;
    feeAmount: string;
    payouts: { submission_id: string; agent_id: string; amount: string }[];
    payoutStatus: string;
  },
): OutboxEvent {
  return event("mission.resolved", m, at, {
    ...missionHead(m, "resolved"),
    resolution_reason: r.reason,
    reward: reward(m),
    fee_amount: r.feeAmount,
    winners: r.payouts,
    payout_status: r.payoutStatus,
    resolved_at: at.toISOString(),
  });
}

/** An amendment was applied: what changed, and the mission's current terms. */
export function missionAmended(
  m: Mission,
  at: Date,
  a: { id: string; seq: number; kind: string; actor: string; changes: Record<string, { from: unknown; to: unknown }> },
): OutboxEvent {
  return event("mission.amended", m, at, {
    ...missionHead(m, m.status),
    amendment_id: a.id,
    seq: a.seq,
    kind: a.kind,
    actor: a.actor,
    changes: a.changes,
    reward: reward(m),
    deadline: m.deadline.toISOString(),
    amendments_count: m.amendmentsCount,
    amended_at: at.toISOString(),
  });
}

/**
 * A creator_judges award with an appeal window was recorded (docs/events.md "mission.awarded"):
 * the winners and their weights, and `pays_at` — the appeal deadline, when the award is paid
 * unless disputes reach the quorum (then a peer vote decides and mission.resolved tells).
 */
export function missionAwarded(m: Mission, at: Date, award: AwardRecord): OutboxEvent {
  return event("mission.awarded", m, at, {
    mission_id: m.id,
    creator: m.creator,
    status: "escrowed",
    phase: "appeal",
    verification_type: m.verificationType,
    reward: reward(m),
    winners: award.winners.map((w) => ({ submission_id: w.submission_id, agent_id: w.agent_id, weight: w.weight })),
    awarded_at: award.awarded_at,
    appeal_deadline: award.appeal_deadline,
    pays_at: award.appeal_deadline,
  });
}

export function missionVoided(m: Mission, at: Date, reason: string): OutboxEvent {
  return event("mission.voided", m, at, {
    ...missionHead(m, "voided"),
    resolution_reason: reason,
    refund: { asset: m.rewardAsset, amount: m.rewardAmount, to: m.creator },
    voided_at: at.toISOString(),
  });
}

export interface SubmissionFacts {
  id: string;
  submitter: string;
  reason: string;
  /** accepted: what this submission was paid. */
  payoutAmount?: string;
}

/** The fields every submission.* event opens with, in their wire order. */
const submissionHead = (m: Mission, s: SubmissionFacts, status: string) => ({
  mission_id: m.id,
  submission_id: s.id,
  submitter: s.submitter,
  status,
  reason: s.reason,
});

export function submissionCreated(m: Mission, at: Date, s: SubmissionFacts & { status: string }): OutboxEvent {
  return event("submission.created", m, at, {
    ...submissionHead(m, s, s.status),
    submitted_at: at.toISOString(),
  });
}

export function submissionDecided(m: Mission, at: Date, s: SubmissionFacts, accepted: boolean): OutboxEvent {
  return event(accepted ? "submission.accepted" : "submission.rejected", m, at, {
    ...submissionHead(m, s, accepted ? "accepted" : "rejected"),
    ...(accepted && s.payoutAmount !== undefined && { payout: { asset: m.rewardAsset, amount: s.payoutAmount } }),
    decided_at: at.toISOString(),
  });
}

/**
 * The funder took its escrow slot back on chain (SelfRefunded or Reclaimed, docs/base-rail.md
 * "Exits and governance"): a payout of it not yet mined failed as `funder_exited`.
 */
export function missionFunderExited(
  m: Mission,
  at: Date,
  e: {
    exit: string;
    contract: string;
    tx_hash: string;
    funder: string;
    amount: string;
    payout_failed: string | null;
  },
): OutboxEvent {
  return event("mission.funder_exited", m, at, {
    mission_id: m.id,
    status: m.status,
    payout_status: m.payoutStatus,
    payout_status_reason: m.payoutStatusReason,
    chain: m.rewardChain,
    asset: m.rewardAsset,
    ...e,
  });
}

/**
 * `custody.alert` (docs/custody.md): an escrow movement or proposal of this mission's slot that no
 * signed decision explains — a release to someone else, a refund of an awarded slot, a foreign
 * proposal, or a payout row refused because its decision does not cover it. `winners[]` routes it
 * to the winners' inboxes as well as the creator's.
 */
export function custodyAlertEvent(m: Mission, at: Date, d: Record<string, unknown>): OutboxEvent {
  return event("custody.alert", m, at, {
    mission_id: m.id,
    status: m.status,
    chain: m.rewardChain,
    asset: m.rewardAsset,
    ...d,
  });
}

/**
 * `payout.confirmed`: a winner's share has reached them. The ledger rail pays inside the
 * resolution's transaction (features/settlement); an on-chain rail emits this when its transfer is
 * final, in the transaction that records it. `delivery: "pull_credit"`: the token refused the
 * transfer (e.g. a blacklisted address); the amount is credited in the escrow and the recipient
 * withdraws it (to itself only, contract v2) — not settled in their wallet.
 */
export function payoutConfirmed(
  m: Mission,
  at: Date,
  p: { submission_id: string; agent_id: string; amount: string },
  onChain?: { chain_id: number; tx_hash: string; delivery: "transfer" | "pull_credit" },
): OutboxEvent {
  return event("payout.confirmed", m, at, {
    mission_id: m.id,
    submission_id: p.submission_id,
    agent_id: p.agent_id,
    asset: m.rewardAsset,
    amount: p.amount,
    chain: m.rewardChain,
    payout_status: "confirmed",
    ...(onChain ?? {}),
    confirmed_at: at.toISOString(),
  });
}

/**
 * The delayed release path (docs/base-rail.md "Release paths"): `payout.proposed` when a release
 * of one escrow slot is proposed on chain (anyone may execute it from `executable_at`), and
 * `payout.cancelled` when the guardian cancels one (the payout waits for the operator; no refund).
 */
export function payoutReleaseEvent(
  m: Mission,
  at: Date,
  type: "payout.proposed" | "payout.cancelled",
  d: Record<string, unknown>,
): OutboxEvent {
  return event(type, m, at, { mission_id: m.id, asset: m.rewardAsset, chain: m.rewardChain, ...d });
}

/**
 * Mission Q&A: `question.asked` (for the creator), `question.answered` and
 * `mission.clarified` (for the claimers). The thread is public, so the text travels in the event;
 * `claimers` lists the agents with an active claim when it happened, so a per-agent inbox or a
 * subscriber can route it to them (anyone may already read GET /missions/{id}/claims).
 */
export function qaEvent(
  m: Mission,
  at: Date,
  type: "question.asked" | "question.answered" | "mission.clarified",
  input: {
    question: {
      id: string;
      kind: string;
      author: string;
      body: string;
      answer: string | null;
      pinned: boolean;
    };
    claimers: string[];
  },
): OutboxEvent {
  const { question: q, claimers } = input;
  return event(type, m, at, {
    mission_id: m.id,
    creator: m.creator,
    question_id: q.id,
    kind: q.kind,
    author: q.author,
    body: q.body,
    answer: q.answer,
    pinned: q.pinned,
    claimers,
    occurred_at: at.toISOString(),
  });
}
