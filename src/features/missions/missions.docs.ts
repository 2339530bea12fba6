import { createHash } from "node:crypto";
import { inArray } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import type { Db } from "../../db/client";
import { missions } from "../../db/schema/index";
import { MISSION_COLUMNS } from "../../db/rows";
import { visibleTo } from "../../db/mission-visibility";
import type { Deps } from "../../deps";
import { DocCache } from "../../lib/doc-cache";
import { missionToWire } from "./missions.wire";
import { Mission } from "./missions.schemas";
import type { CreatorRecordCompactRow } from "../records";

/** Memory (characters) for serialized missions keyed by (id, row_version), from which list pages are assembled. */
const MISSION_DOC_CACHE_BYTES = 64 * 1024 * 1024;

// A list page is one narrow SELECT of (id, row_version) — then string concatenation of
// serialized missions kept under (id, row_version); the misses are read in ONE query by id. The
// documents are the anonymous view (lists never unseal, missions.wire.ts verificationParamsFor),
// so they are the same for every caller of a list.

// Documents are kept as UTF-8 bytes: a page is then one Buffer.concat, several times cheaper than
// joining ~50 strings and encoding the result for the socket (bench/README.md).
const caches = new WeakMap<Deps["database"], DocCache<Buffer>>();

/** The instance's mission document cache (one per database handle; MISSION_DOC_CACHE_BYTES less the answers' share). */
function missionDocs(deps: Pick<Deps, "database">): DocCache<Buffer> {
  let c = caches.get(deps.database);
  if (!c) {
    c = new DocCache(MISSION_DOC_CACHE_BYTES - ANSWER_BYTES);
    caches.set(deps.database, c);
  }
  return c;
}

/** A mission's whole anonymous answer: its document with the creator's record, and the ETag. */
interface MissionAnswer {
  /** The creator record's JSON it was built with (the record moves without the row's version). */
  record: string;
  etag: string;
  body: Buffer;
  readonly length: number;
}

/**
 * Answers hold this share of MISSION_DOC_CACHE_BYTES, the documents the rest, so the constant
 * still bounds both: a fifth keeps ~8 000 missions' answers at the 64 MiB default.
 */
const ANSWER_SHARE = 5;
const ANSWER_BYTES = Math.floor(MISSION_DOC_CACHE_BYTES / ANSWER_SHARE);
const answerCaches = new WeakMap<Deps["database"], DocCache<MissionAnswer>>();

/** The instance's assembled GET /missions/{id} answers, keyed by (id, row_version) as the documents are. */
export function missionAnswers(deps: Pick<Deps, "database">): DocCache<MissionAnswer> {
  let c = answerCaches.get(deps.database);
  if (!c) {
    c = new DocCache(ANSWER_BYTES);
    answerCaches.set(deps.database, c);
  }
  return c;
}

export interface MissionRef {
  id: string;
  version: number;
  creator: string;
  /** The creator's record, joined into the page query (null: none yet). */
  record?: CreatorRecordCompactRow | null;
}

/**
 * The JSON documents of `refs`, in order, from the cache or (misses) from one SELECT by id, with
 * the versions actually served. A row changed between the page query and this read is served at
 * its newer version — never an older one — and a row that is no longer publicly visible (or gone)
 * is left out.
 */
export async function missionDocsFor(
  { deps, db }: { deps: Pick<Deps, "database" | "config">; db: Db },
  refs: MissionRef[],
): Promise<{ docs: Buffer[]; served: MissionRef[] }> {
  const cache = missionDocs(deps);
  const served = refs.map((r) => ({ ...r }));
  const docs: (Buffer | undefined)[] = refs.map((r) => cache.get(r.id, r.version));
  const missing = refs.filter((_, i) => docs[i] === undefined).map((r) => r.id);
  if (missing.length > 0) {
    const rows = await db
      .select({ ...MISSION_COLUMNS, rowVersion: missions.rowVersion })
      .from(missions)
      .where(inArray(missions.id, missing));
    const byId = new Map(rows.map((r) => [r.id, r]));
    refs.forEach((ref, i) => {
      if (docs[i] !== undefined) return;
      const row = byId.get(ref.id);
      if (!row || !visibleTo(row, null)) return;
      const doc = Buffer.from(JSON.stringify(missionToWire({ deps }, { row })), "utf8");
      cache.set(row.id, row.rowVersion, doc);
      docs[i] = doc;
      served[i]!.version = row.rowVersion;
    });
  }
  const kept = docs.flatMap((d, i) => (d === undefined ? [] : [i]));
  return { docs: kept.map((i) => docs[i]!), served: kept.map((i) => served[i]!) };
}

/**
 * A page's weak ETag from what determines its bytes: the public URL, the wire revision, each
 * (id, row_version), each creator record served beside it, and the cursor — no hashing of the
 * body itself.
 */
export function pageEtag(
  { deps }: { deps: Pick<Deps, "config"> },
  {
    refs,
    next,
    records = new Map(),
  }: { refs: MissionRef[]; next: string | null; records?: ReadonlyMap<string, string> },
): string {
  const h = createHash("sha256").update(`${WIRE_REVISION}\n${deps.config.publicUrl}\n${next ?? ""}\n`);
  for (const r of refs) h.update(`${r.id}:${r.version}:${records.get(r.creator) ?? ""},`);
  return `W/"p${h.digest("base64url").slice(0, 26)}"`;
}

/**
 * The creator's compact record belongs to the creator, not to the mission row,
 * so it changes without the row's version moving. It is therefore never part of a cached
 * document: each page adds the records it read (one query per page) as the document's last
 * member, `{…,"creator_record":{…}}`.
 */
export function withCreatorRecord(doc: Buffer, record: string | undefined): Buffer {
  if (record === undefined) return doc;
  return Buffer.concat([doc.subarray(0, doc.length - 1), Buffer.from(`,"creator_record":${record}}`)]);
}

/**
 * Bump when missionToWire's VALUES change for the same row and the same shape (a new URL form, a
 * new rounding); a change of shape needs nothing: it changes the schema hash below.
 */
const WIRE_VALUES_EPOCH = 1;

/**
 * The revision of a cached document's wire shape: a hash of its zod schema as JSON Schema, without
 * the prose (descriptions, examples), so a new, removed or retyped field can never be served from
 * pages cached — by an instance or by a client holding an ETag — for the old shape
 * (docs/decisions/engineering.md "Rules as checks").
 */
export function wireRevision(schema: z.ZodType, epoch = WIRE_VALUES_EPOCH): string {
  const shape = JSON.stringify(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }), (k, v) =>
    k === "description" || k === "example" || k === "examples" ? undefined : v,
  );
  return `mission-wire-${epoch}-${createHash("sha256").update(shape).digest("base64url").slice(0, 12)}`;
}

/** The mission documents' revision (part of every list page's ETag): derived, never bumped by hand. */
export const WIRE_REVISION = wireRevision(Mission);

const HEAD = Buffer.from('{"missions":[');
const COMMA = Buffer.from(",");

/** `{"missions":[…],"next_cursor":…}` from serialized missions — byte for byte JSON.stringify's. */
export function pageBody(docs: Buffer[], next: string | null): Buffer {
  const parts: Buffer[] = [HEAD];
  docs.forEach((d, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(d);
  });
  parts.push(Buffer.from(`],"next_cursor":${JSON.stringify(next)}}`));
  return Buffer.concat(parts);
}
