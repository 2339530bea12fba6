import { type Ctx } from "../../lib/context";
import { decodeDataUri } from "../../lib/data-uri";
import { AppError } from "../../lib/errors";
import { findVisibleSubmission } from "./submissions.service";

// GET /missions/{id}/submissions/{sid}/content: the one place a `data:`
// deliverable's bytes are served. Lists point here instead of inlining them. Its own caps: one
// deliverable per response (≤ the body limit it was accepted under) and at most CONTENT_SLOTS
// responses being built at once per process (503 + Retry-After past it); its own caching: the
// bytes never change, so the ETag is the content hash and a revalidation is a 304 without a body.

/** Concurrent content responses per process: each holds up to one decoded deliverable in memory. */
const CONTENT_SLOTS = 16;
let busy = 0;

export interface SubmissionContent {
  body: Buffer;
  mediaType: string;
  /** Quoted strong ETag: the deliverable's sha256. */
  etag: string;
  /** Everyone may read it (mission decided) → public caching; else only the viewer's cache. */
  shared: boolean;
}

/**
 * Reads a deliverable under the same visibility rule as its submission's content_uri. A remote
 * deliverable is not proxied (404 remote_content with its content_uri): we never fetch for a reader.
 */
export async function readSubmissionContent(
  ctx: Ctx,
  input: { missionId: string; submissionId: string; ifNoneMatch?: string | undefined },
): Promise<SubmissionContent | "not_modified"> {
  const { ifNoneMatch } = input;
  const { mission, row, wire } = await findVisibleSubmission(ctx, input);
  if (wire.content_uri === null)
    throw new AppError("FORBIDDEN", "this deliverable is private until the mission is decided", {
      reason: "content_private",
    });
  const etag = `"${row.contentHash}"`;
  if (ifNoneMatch !== undefined && ifNoneMatch.split(",").some((t) => t.trim() === etag || t.trim() === `W/${etag}`))
    return "not_modified";
  if (!row.contentUri.startsWith("data:")) {
    throw new AppError("NOT_FOUND", "this deliverable is remote: read it at its content_uri", {
      reason: "remote_content",
      content_uri: row.contentUri,
    });
  }
  if (busy >= CONTENT_SLOTS)
    throw new AppError("SERVICE_UNAVAILABLE", "too many deliverables being served; retry shortly", {
      reason: "content_busy",
      retry_after_seconds: 1,
    });
  busy++;
  try {
    const decoded = decodeDataUri(new URL(row.contentUri), Number.MAX_SAFE_INTEGER); // accepted ≤ body limit
    if (!decoded.ok)
      throw new AppError("NOT_FOUND", "the stored deliverable cannot be decoded", { reason: "invalid_data_uri" });
    const shared = mission.status === "resolved" || mission.status === "voided";
    return { body: decoded.body, mediaType: decoded.mediaType, etag, shared };
  } finally {
    busy--;
  }
}
