import { asc, eq, isNull, or } from "drizzle-orm";
import { parseJsonBounded } from "../../lib/json-text";
import { submissions } from "../../db/schema/index";
import { pendingOf } from "../../db/mission-parts";
import type { Deps } from "../../deps";
import type { Ctx, TxCtx } from "../../lib/context";
import { sha256Hex } from "../../lib/hash";
import type { SafeFetchResult } from "../../lib/safe-fetch";
import { matchContent } from "../../lib/safe-regex";
import type { CheckOutcome, SubmissionReason } from "../../lib/reasons";
import { sampleOf } from "./predicate-sample";
import { closeWithoutWinner, isCommitReveal, judgeCommitReveal, payFirstValid } from "./commit-reveal";
import type { MissionRow, SubmissionRow } from "../../db/rows";
import type { FirstValidMatchParams } from "../../db/verification";

/** What a first_valid_match check reads of the mission's params (db/verification.ts). */
export type FvmParams = Pick<FirstValidMatchParams, "target_hash" | "predicate_uri" | "expected" | "match_mode">;

/** True when checking this submission needs the network (remote content or a predicate). */
export function needsNetwork(params: FvmParams, contentUri: string): boolean {
  return params.predicate_uri !== undefined || !contentUri.startsWith("data:");
}

const TRANSIENT = new Set(["timeout", "connect_timeout", "connect_error", "dns_error"]);
const transientStatus = (s: number) => s >= 500 || s === 429 || s === 408;

/**
 * A fetch's 200 body, or the outcome that ends the check when there is none: a busy host or a
 * transient failure retries (busy costs no attempt), the rest is invalid — `unavailable` when
 * nothing answered, `refused` when the answer was not 200.
 */
function bodyOf(r: SafeFetchResult, unavailable: SubmissionReason, refused = unavailable): Buffer | CheckOutcome {
  if (!r.ok && r.reason === "host_busy") return { result: "retry", reason: unavailable, busy: true };
  if (!r.ok)
    return TRANSIENT.has(r.reason)
      ? { result: "retry", reason: unavailable }
      : { result: "invalid", reason: unavailable };
  if (r.status !== 200)
    return transientStatus(r.status)
      ? { result: "retry", reason: unavailable }
      : { result: "invalid", reason: refused };
  return r.body;
}

function decodeData(uri: string): Buffer {
  const comma = uri.indexOf(",");
  const meta = uri.slice(5, comma);
  const payload = uri.slice(comma + 1);
  return meta.endsWith(";base64") ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload), "utf8");
}

/**
 * The tamper check alone (creator_judges, peer_vote, oracle): the remote deliverable must be
 * fetchable and hash to content_hash (docs/design.md "Submissions").
 */
async function checkContent(deps: Deps, s: Pick<SubmissionRow, "contentUri" | "contentHash">): Promise<CheckOutcome> {
  if (s.contentUri.startsWith("data:")) return { result: "valid" };
  const fetched = await fetchVerified(deps, s);
  return Buffer.isBuffer(fetched) ? { result: "valid" } : fetched;
}

/**
 * Remote content fetched through the SSRF-safe fetcher and held to content_hash: the body, or the
 * outcome that ends the check (transient failures retry, the rest are invalid).
 */
async function fetchVerified(
  deps: Deps,
  s: Pick<SubmissionRow, "contentUri" | "contentHash">,
): Promise<Buffer | CheckOutcome> {
  const body = bodyOf(await deps.fetcher.fetch(s.contentUri), "content_unavailable");
  if (!Buffer.isBuffer(body)) return body;
  if (`sha256:${sha256Hex(body)}` !== s.contentHash) return { result: "invalid", reason: "content_hash_mismatch" };
  return body;
}

/**
 * AIP-1 §4.2 check of one submission, outside any lock (it may fetch). Remote content must hash to
 * content_hash first (tamper check, docs/design.md). Then the §4.2 sentence, read as OR: "the first
 * submission whose content_hash matches a creator-supplied target hash, or whose content_uri
 * returns a value satisfying a creator-supplied predicate" — a target_hash match wins at once;
 * otherwise the predicate decides: predicate_uri when set (it "takes precedence over match_mode"),
 * else the inline `expected` with its match_mode. With target_hash alone, a mismatch is invalid.
 * Without a match rule (`params` undefined: the other methods), the tamper check alone.
 */
export async function checkSubmission(
  { deps }: Pick<Ctx, "deps">,
  { params, submission: s }: { params: FvmParams | undefined; submission: Checked },
): Promise<CheckOutcome> {
  if (!params) return checkContent(deps, s);
  let content: Buffer;
  if (s.contentUri.startsWith("data:")) {
    content = decodeData(s.contentUri); // hash verified when the submission was accepted
  } else {
    const fetched = await fetchVerified(deps, s);
    if (!Buffer.isBuffer(fetched)) return fetched;
    content = fetched;
  }
  if (params.target_hash !== undefined && params.target_hash === s.contentHash) return { result: "valid" };
  if (params.predicate_uri !== undefined) return askPredicate(deps, params.predicate_uri, s, content);
  if (params.expected !== undefined) return matchExpected(deps, params, params.expected, content);
  return { result: "invalid", reason: "target_hash_mismatch" };
}

type Checked = Pick<
  SubmissionRow,
  "id" | "missionId" | "submitter" | "contentUri" | "contentHash" | "submittedAt" | "metadata"
>;

/**
 * predicate_uri: POSTs a commitment to the submission and a sample of it (predicate-sample.ts) to
 * the creator's predicate, never the content_uri nor the whole work; 200 without `"valid": false`
 * is valid.
 */
async function askPredicate(deps: Deps, predicateUri: string, s: Checked, content: Buffer): Promise<CheckOutcome> {
  const body = JSON.stringify({
    mission_id: s.missionId,
    submission_id: s.id,
    submitter: s.submitter,
    content_hash: s.contentHash,
    content_length: content.length,
    sample: sampleOf(content, `${s.id}:${s.contentHash}`),
    submitted_at: s.submittedAt.toISOString(),
    metadata: s.metadata ?? null,
  });
  const r = await deps.fetcher.fetch(predicateUri, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const reply = bodyOf(r, "predicate_unavailable", "predicate_rejected");
  if (!Buffer.isBuffer(reply)) return reply;
  try {
    const verdict: unknown = parseJsonBounded(reply.toString("utf8"));
    // valid iff 200 with a JSON body that does not say "valid": false (docs/design.md)
    if (typeof verdict === "object" && verdict !== null && "valid" in verdict && verdict.valid === false)
      return { result: "invalid", reason: "predicate_rejected" };
    return { result: "valid" };
  } catch {
    return { result: "invalid", reason: "predicate_rejected" };
  }
}

/** The inline `expected` with its match_mode, against the content. */
async function matchExpected(
  _deps: Deps,
  params: FvmParams,
  expected: NonNullable<FvmParams["expected"]>,
  content: Buffer,
): Promise<CheckOutcome> {
  const m = await matchContent(params.match_mode ?? "substring", expected, content.toString("utf8"));
  // Over the time budget, or the matcher's queue full: not the submitter's fault, so the check
  // is retried (backoff, MAX_CHECK_ATTEMPTS) and never turned into "no match".
  if (!m.ok && (m.reason === "timeout" || m.reason === "busy")) return { result: "retry", reason: "match_timeout" };
  return m.ok && m.matched ? { result: "valid" } : { result: "invalid", reason: "expected_not_matched" };
}

/**
 * Judges a first_valid_match mission in arrival order (submission seq). Caller's transaction
 * holds the mission row lock and has checked the mission is open or escrowed. The earliest
 * submission still pending decides: unchecked → wait; valid → it wins, the mission resolves at
 * once and every later pending submission is rejected. Invalid ones were rejected when checked.
 * Past the deadline with nothing pending, the mission is voided.
 */
export async function judgeFirstValidMatch(
  ctx: TxCtx,
  { mission: m }: { mission: MissionRow },
): Promise<"resolved" | "voided" | "waiting"> {
  if (isCommitReveal(m)) return judgeCommitReveal(ctx, { mission: m });
  const { tx, now } = ctx;
  // A held submission (its predicate never answered or rejected it, or an upheld bad_spec voided
  // the rule's rejection; default-award.ts) stays pending for the default outcome but no longer
  // holds up the arrival order: the rule decides the others.
  const [first] = await tx
    .select()
    .from(submissions)
    .where(pendingOf(m.id, or(isNull(submissions.checkResult), eq(submissions.checkResult, "valid"))))
    .orderBy(asc(submissions.seq))
    .limit(1);
  if (first?.checkResult === "valid") return payFirstValid(ctx, { mission: m, winner: first });
  if (!first && m.deadline.getTime() <= now.getTime())
    return closeWithoutWinner(ctx, { mission: m, hadSubmissions: m.submissionCount > 0 });
  return "waiting";
}
