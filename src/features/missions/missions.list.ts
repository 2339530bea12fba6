import { normalizeAddress } from "../../lib/address";
import { type Ctx, dbOf } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { stableStringify } from "../../lib/idempotency";
import { findAsset } from "../../lib/money";
import type { ListMissionsFilters, MissionWire } from "./missions.schemas";
import { creatorRecordCompact, type CreatorRecordCompactRow } from "../records";
import {
  type ListConditions,
  filteredPage,
  selectRefs,
  selectRows,
  newestPublic,
  prepared,
  rewardPageRefs,
  tagOnly,
  tagPageRefs,
  toPrefixTsquery,
} from "./missions.queries";
import { type MissionRef, missionDocsFor, pageBody, pageEtag, withCreatorRecord } from "./missions.docs";
import { missionToWire } from "./missions.wire";
import { withViewerBlockedList } from "./missions.viewer";
import type { MissionRow } from "../../db/rows";
import { listFreshness } from "./missions.cache";
import { decodeIdCursor, keysetPage } from "../../lib/cursor";

/**
 * GET /missions as JSON with its ETag (MCP list_missions carries the same bytes), served from the instance's list cache (cleared on every
 * committed mission change; see missions.cache.ts). Filters are zod-validated, so unknown
 * parameters cannot multiply cache keys. A miss assembles the page from serialized missions
 * (missions.docs.ts): one narrow query, the documents from the (id, row_version) cache. The
 * stored text is "etag\nbody", so a hit — and a 304 — costs no hashing. With the list cache off
 * (OABP_LIST_CACHE_BYTES=0) the page goes out as the bytes it was assembled into. Entries are
 * stamped with the database position they include, so a reader presenting a newer write token
 * (OABP-Read-After) gets a refill, never an entry older than its write.
 */
export async function listMissionsDoc(
  ctx: Ctx,
  f: ListMissionsFilters,
): Promise<{ etag: string; body: string | Uint8Array }> {
  return withViewerBlockedList(ctx, await sharedListDoc(ctx, f));
}

/** The page every reader shares (viewer_blocked null), from this instance's list cache. */
async function sharedListDoc(ctx: Ctx, f: ListMissionsFilters): Promise<{ etag: string; body: string | Uint8Array }> {
  if (!ctx.deps.missionLists.enabled) return listMissionsPage(ctx, f);
  const text = await ctx.deps.missionLists.get(
    stableStringify(f),
    async () => {
      const doc = await listMissionsPage(ctx, f);
      return `${doc.etag}\n${doc.body.toString("utf8")}`;
    },
    listFreshness(ctx),
  );
  const nl = text.indexOf("\n");
  return { etag: text.slice(0, nl), body: text.slice(nl + 1) };
}

/** The same list as JSON text (A2A reads it). */
export async function listMissionsJson(ctx: Ctx, f: ListMissionsFilters): Promise<string> {
  return missionDocText(await listMissionsDoc(ctx, f));
}

/** A pre-serialised document's JSON text. */
const missionDocText = ({ body }: { body: string | Uint8Array }) =>
  typeof body === "string" ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");

/** One page as JSON text, from (id, row_version) refs and cached serialized missions. */
async function listMissionsPage(ctx: Ctx, f: ListMissionsFilters): Promise<{ etag: string; body: Buffer }> {
  const { deps } = ctx;
  const db = dbOf(ctx);
  const before = decodeIdCursor(f.cursor, "mis");
  let refs: MissionRef[];
  if (isPlain(f)) {
    refs = await newestPublic(prepared(db).refsPublic, { before, limit: f.limit + 1 });
  } else {
    const where = conditionsOf(ctx, f, before);
    refs = !where
      ? []
      : tagOnly(where)
        ? await tagPageRefs(db, { tag: where.tag, before, pageRows: f.limit + 1 })
        : ((await rewardPageRefs(db, where)) ??
          (await filteredPage(selectRefs(db).$dynamic(), { where, rows: f.limit + 1 })));
  }
  const { page, next_cursor: next } = keysetPage(refs, f.limit);
  const { docs, served } = await missionDocsFor({ deps, db }, page);
  const records = new Map(
    page.map((r) => [r.creator, JSON.stringify(creatorRecordCompact(r.record ?? undefined))] as const),
  );
  return {
    etag: pageEtag(ctx, { refs: served, next, records }),
    body: pageBody(
      docs.map((d, i) => withCreatorRecord(d, records.get(served[i]!.creator))),
      next,
    ),
  };
}

function isPlain(f: ListMissionsFilters): boolean {
  return (
    !f.mission_type &&
    !f.status &&
    !f.verification_type &&
    !f.asset &&
    !f.creator &&
    !f.tag &&
    !f.q &&
    !f.reward_min &&
    !f.reward_max &&
    !f.deadline_after &&
    !f.deadline_before &&
    f.creator_min_paid_ratio === undefined &&
    f.creator_max_never_judged === undefined
  );
}

/** The validated filters as list conditions; null when nothing can match (a query with no words). */
function conditionsOf(ctx: Ctx, f: ListMissionsFilters, before: string | undefined): ListConditions | null {
  let creator: string | undefined;
  if (f.creator) {
    creator = normalizeAddress(f.creator) ?? undefined;
    if (!creator) throw new AppError("INVALID_PARAMETER", "creator must be an EVM address", { field: "creator" });
  }
  const asset = f.asset ? (findAsset(ctx.deps.config.assets, f.asset)?.symbol ?? f.asset) : undefined;
  const tsquery = f.q ? (toPrefixTsquery(f.q) ?? undefined) : undefined;
  if (f.q && !tsquery) return null;
  return {
    statuses: f.status,
    missionTypes: f.mission_type,
    verificationType: f.verification_type,
    asset,
    creator,
    tag: f.tag?.toLowerCase(),
    tsquery,
    rewardMin: f.reward_min,
    rewardMax: f.reward_max,
    deadlineAfter: f.deadline_after ? new Date(f.deadline_after) : undefined,
    deadlineBefore: f.deadline_before ? new Date(f.deadline_before) : undefined,
    creatorMinPaidRatioBp:
      f.creator_min_paid_ratio === undefined ? undefined : Math.ceil(f.creator_min_paid_ratio * 10_000),
    creatorMaxNeverJudged: f.creator_max_never_judged,
    before,
    pageRows: f.limit + 1,
  };
}

/** GET /missions: public statuses only, newest first, keyset cursor on the time-ordered id. */
export async function listMissions(
  ctx: Ctx,
  f: ListMissionsFilters,
): Promise<{ missions: MissionWire[]; next_cursor: string | null }> {
  const before = decodeIdCursor(f.cursor, "mis");
  const db = dbOf(ctx);
  let rows: (Omit<MissionRow, "search"> & { record: CreatorRecordCompactRow | null })[];
  if (isPlain(f)) {
    rows = await newestPublic(prepared(db).listPublic, { before, limit: f.limit + 1 });
  } else {
    const where = conditionsOf(ctx, f, before);
    if (!where) return { missions: [], next_cursor: null };
    // A narrow reward range's page is found by its refs, then read whole.
    const refs = await rewardPageRefs(db, where);
    rows = await filteredPage(selectRows(db).$dynamic(), {
      where: refs ? { ids: refs.map((r) => r.id) } : where,
      rows: f.limit + 1,
    });
  }
  const { page, next_cursor: next } = keysetPage(rows, f.limit);
  // Each creator's record came joined with its row.
  return {
    missions: page.map((r) => missionToWire(ctx, { row: r, record: r.record })),
    next_cursor: next,
  };
}
