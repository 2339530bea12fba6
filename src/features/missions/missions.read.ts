import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { agentBlocklist } from "../../db/schema/index";
import { type Ctx, viewerOf } from "../../lib/context";
import { isId } from "../../lib/ids";
import type { MissionWire } from "./missions.schemas";
import { creatorRecordCompact, recordOf } from "../records";
import { prepared } from "./missions.queries";
import { missionAnswers, missionDocsFor, pageEtag, withCreatorRecord } from "./missions.docs";
import { assertVisible, findVisibleMission, viewerFor } from "../../db/mission-visibility";
import { missionToWire } from "./missions.wire";

/** GET /missions/{id}: pending_escrow missions are visible to their creator only. */
export async function getMission(ctx: Ctx, input: { id: string }): Promise<MissionWire> {
  const viewer = viewerOf(ctx);
  // Outside a transaction: the row and its creator's record in one prepared read.
  if (!ctx.tx) {
    const [row] = isId("mis", input.id)
      ? await prepared(ctx.read?.db ?? ctx.deps.database.db).byIdWithRecord.execute({ id: input.id })
      : [];
    // The operator (admin token) reads hidden missions too (docs/moderation.md).
    const m = assertVisible(row, input.id, viewerFor(ctx));
    return withViewerBlocked(
      ctx.read?.db ?? ctx.deps.database.db,
      missionToWire(ctx, { row: m, viewer, record: m.record }),
      viewer,
    );
  }
  const row = await findVisibleMission(ctx, input.id, viewerFor(ctx));
  const record = await recordOf(ctx.tx, row.creator);
  return withViewerBlocked(ctx.tx, missionToWire(ctx, { row, viewer, record: record ?? null }), viewer);
}

/**
 * AIP-2 §4.1 "every eligibility gate": the creator's standing block-list (agents/blocklist) is
 * enforced at submit (403 `blocked`), so the signed-in reader of a mission learns it here first —
 * whether it is blocked, never the list (docs/decisions.md "Eligibility"). One primary-key read.
 */
async function withViewerBlocked(db: DbOrTx, w: MissionWire, viewer: string | undefined): Promise<MissionWire> {
  if (viewer === undefined || viewer === w.creator || w.eligibility.viewer_blocked) return w;
  const [hit] = await db
    .select({ b: agentBlocklist.blocked })
    .from(agentBlocklist)
    .where(and(eq(agentBlocklist.owner, w.creator), eq(agentBlocklist.blocked, viewer)))
    .limit(1);
  return hit ? { ...w, eligibility: { ...w.eligibility, viewer_blocked: true } } : w;
}

/**
 * GET /missions/{id} for an anonymous reader: the mission's cached document (the same
 * bytes lists serve) plus its creator's record, with an ETag from (id, row_version, record). One
 * conditional read by primary key — the row's version and its creator's record, read where the
 * request's reads go (so a write token and every committed change are seen, whichever process
 * wrote) — then, when neither moved, the answer this instance already assembled: no serialisation,
 * no hashing, no copy. Undefined when the reader is not anonymous or the mission is not public:
 * getMission answers those.
 */
export async function missionDocById(ctx: Ctx, id: string): Promise<{ etag: string; body: Buffer } | undefined> {
  if (ctx.tx || ctx.caller.kind !== "anonymous" || !isId("mis", id)) return undefined;
  const db = ctx.read?.db ?? ctx.deps.database.db;
  const [ref] = await prepared(db).refPublicById.execute({ id });
  if (!ref) return undefined;
  const record = JSON.stringify(creatorRecordCompact(ref.record ?? undefined));
  const answers = missionAnswers(ctx.deps);
  const hit = answers.get(id, ref.version);
  if (hit?.record === record) return hit;
  const {
    docs: [doc],
    served: [at],
  } = await missionDocsFor({ deps: ctx.deps, db }, [ref]);
  if (!doc || !at) return undefined;
  const body = withCreatorRecord(doc, record);
  const answer = {
    record,
    etag: pageEtag(ctx, { refs: [at], next: null, records: new Map([[ref.creator, record]]) }),
    body,
    length: body.length,
  };
  answers.set(id, at.version, answer);
  return answer;
}
