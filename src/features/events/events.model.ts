import { asc, eq, gt, inArray, max, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { missions, webhookEvents } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { isId } from "../../lib/ids";
import { envelope } from "../../lib/webhook-events";
import { assignSequence } from "./events.sequence";

// One committed, numbered outbox event as the live streams hold it: what the filters and the
// inbox's relevance test read, and its SSE frame, encoded once and shared by every subscriber.

export interface StreamEvent {
  seq: bigint;
  id: string;
  type: string;
  missionId: string;
  creator: string;
  verificationType: string;
  tags: string[];
  /** The mission's reward now (null: the mission row is gone). */
  rewardAsset: string | null;
  rewardAmount: bigint | null;
  /** Agents the event is about: creator, submitter, payee, winners (lowercase addresses). */
  parties: string[];
  /** The envelope, byte for byte what a webhook delivers. */
  body: string;
  /** `id:`, `event:` and `data:` lines of the SSE frame, UTF-8. */
  frame: Uint8Array;
}

const encoder = new TextEncoder();
export const encode = (s: string): Uint8Array => encoder.encode(s);

function partiesOf(creator: string, data: Record<string, unknown>): string[] {
  const out = new Set<string>([creator]);
  for (const k of ["submitter", "agent_id"] as const) if (typeof data[k] === "string") out.add(data[k] as string);
  if (Array.isArray(data.winners))
    for (const w of data.winners as { agent_id?: unknown }[]) if (typeof w?.agent_id === "string") out.add(w.agent_id);
  return [...out].map((a) => a.toLowerCase());
}

const e = webhookEvents;

/** Numbered events after seq `after`, in seq order, at most `limit`. */
export async function readEvents(
  deps: Deps,
  { after, limit }: { after: bigint; limit: number },
): Promise<StreamEvent[]> {
  return selectEvents(deps, gt(e.seq, after), limit);
}

/** The numbered events with these seqs, in seq order (the inbox's page, events.inbox.ts). */
export async function readEventsAt(deps: Deps, seqs: bigint[]): Promise<StreamEvent[]> {
  return seqs.length === 0 ? [] : selectEvents(deps, inArray(e.seq, seqs), seqs.length);
}

async function selectEvents(deps: Deps, where: SQL, limit: number): Promise<StreamEvent[]> {
  const rows = await deps.database.db
    .select({
      seq: e.seq,
      id: e.id,
      type: e.type,
      occurredAt: e.occurredAt,
      missionId: e.missionId,
      creator: e.creator,
      verificationType: e.verificationType,
      tags: e.tags,
      data: e.data,
      body: e.body,
      rewardAsset: missions.rewardAsset,
      rewardAmount: missions.rewardAmount,
    })
    .from(e)
    .leftJoin(missions, eq(missions.id, e.missionId))
    .where(where)
    .orderBy(asc(e.seq))
    .limit(limit);
  return rows.map((r) => {
    const body = r.body ?? envelope(deps.config.publicUrl, r);
    return {
      seq: r.seq!,
      id: r.id,
      type: r.type,
      missionId: r.missionId,
      creator: r.creator,
      verificationType: r.verificationType,
      tags: r.tags,
      rewardAsset: r.rewardAsset,
      rewardAmount: r.rewardAmount === null ? null : BigInt(r.rewardAmount),
      parties: partiesOf(r.creator, JSON.parse(r.data) as Record<string, unknown>),
      body,
      frame: encode(`id: ${r.id}\nevent: ${r.type}\ndata: ${body}\n\n`),
    };
  });
}

/** The highest number given so far (0: none), with its event id. */
export async function headOf(db: Db): Promise<{ seq: bigint; id: string | undefined }> {
  const [m] = await db.select({ seq: max(e.seq) }).from(e);
  const seq = m?.seq ?? null;
  if (seq === null) return { seq: 0n, id: undefined };
  const [row] = await db
    .select({ id: e.id })
    .from(e)
    .where(eq(e.seq, BigInt(seq)));
  return { seq: BigInt(seq), id: row?.id };
}

/**
 * The position just after event `id` (a `Last-Event-ID`, `?after=` or inbox cursor). A malformed
 * id, or one this server does not hold (never issued, or purged after the retention), is a 400
 * with `details.reason`: resuming from a guess would silently skip or repeat events.
 */
export async function resolveCursor(deps: Deps, { id, field }: { id: string; field: string }): Promise<bigint> {
  if (!isId("evt", id))
    throw new AppError("INVALID_PARAMETER", `${field} must be an event id (evt_…)`, {
      field,
      reason: "malformed_event_id",
    });
  const db = deps.database.db;
  for (let i = 0; i < 2; i++) {
    const [row] = await db.select({ seq: e.seq }).from(e).where(eq(e.id, id));
    if (!row)
      throw new AppError(
        "INVALID_PARAMETER",
        `${field} names no event held by this server (unknown, or purged after the retention): reconnect without it`,
        { field, reason: "unknown_event_id" },
      );
    if (row.seq !== null) return row.seq;
    await assignSequence(db);
  }
  throw new AppError("SERVICE_UNAVAILABLE", "the event is not numbered yet: retry shortly");
}
