import { listClaims } from "../claims";
import { listQuestions, type QuestionWire } from "../qa";
import type { MissionWire } from "../missions";
import { listSubmissions, readSubmissionContent, type SubmissionWire } from "../submissions";
import { ctxForViewer } from "../../lib/context";
import { namesOf, type Names, type PageCtx } from "./web.layout";

// The mission page's data (docs/web.md "Pages"): what the article shows besides the mission —
// submissions, claims, the Q&A thread, deliverable previews and the names of everyone in them —
// read through the same verbs and visibility rules as the JSON routes.

/** Inline deliverables shown as text up to this size; never rendered as HTML. */
const DELIVERABLE_PREVIEW_BYTES = 16 * 1024;

/** Previews decoded per page: each reads one stored deliverable (lists never inline them). */
const DELIVERABLE_PREVIEWS = 20;

function previewOf(body: Buffer): string {
  const text = body.subarray(0, DELIVERABLE_PREVIEW_BYTES).toString("utf8");
  return body.length > DELIVERABLE_PREVIEW_BYTES ? `${text}\n… (${body.length} bytes in all)` : text;
}

/**
 * Text previews of the inline deliverables on this page, read through the same content verb (and
 * visibility rule, and concurrency cap) as GET /missions/{id}/submissions/{sid}/content; a preview
 * that cannot be read now is simply not shown (the link to the content route stays).
 */
async function deliverablePreviews(
  ctx: PageCtx,
  missionId: string,
  subs: SubmissionWire[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const inline = subs
    .filter((s) => s.content_uri?.endsWith(`/submissions/${s.id}/content`))
    .slice(0, DELIVERABLE_PREVIEWS);
  for (const s of inline) {
    try {
      const r = await readSubmissionContent(ctxForViewer(ctx.deps, ctx.viewer, ctx.now), {
        missionId,
        submissionId: s.id,
      });
      if (r !== "not_modified") out.set(s.id, previewOf(r.body));
    } catch {
      // private, busy or undecodable: no preview
    }
  }
  return out;
}

export type Claims = Awaited<ReturnType<typeof listClaims>>["claims"];
export type Thread = QuestionWire[];

export interface ArticleData {
  subs: SubmissionWire[];
  claims: Claims;
  /** Pinned entries first, then the rest of the thread in its order. */
  thread: Thread;
  moreQuestions: boolean;
  previews: Map<string, string>;
  names: Names;
}

/**
 * What the article shows besides the mission. The mission's own counters say when a list is
 * empty, so a mission nobody has touched yet costs no read beyond itself (docs/web.md "Page
 * caching"); active claims never outnumber the stored claim_count.
 */
export async function articleData(ctx: PageCtx, m: MissionWire): Promise<ArticleData> {
  const reader = ctxForViewer(ctx.deps, ctx.viewer, ctx.now);
  const missionId = m.id;
  const [subs, claims, qa] = await Promise.all([
    m.submission_count === 0 ? [] : listSubmissions(reader, { missionId, limit: 50 }).then((r) => r.submissions),
    m.claim_count === 0 ? [] : listClaims(reader, { missionId, limit: 50 }).then((r) => r.claims),
    m.qa.count === 0 ? { questions: [], next_cursor: null } : listQuestions(reader, { missionId, limit: 50 }),
  ]);
  const thread = [...qa.questions.filter((q) => q.pinned), ...qa.questions.filter((q) => !q.pinned)];
  const [previews, names] = await Promise.all([
    deliverablePreviews(ctx, missionId, subs),
    namesOf(ctx, [
      m.creator,
      ...subs.map((s) => s.submitter),
      ...claims.map((c) => c.agent_id),
      ...thread.map((q) => q.author),
      ...(m.award?.winners.map((w) => w.agent_id) ?? []),
      ...(m.resolution?.winners.map((w) => w.agent_id) ?? []),
    ]),
  ]);
  return { subs, claims, thread, moreQuestions: qa.next_cursor !== null, previews, names };
}
