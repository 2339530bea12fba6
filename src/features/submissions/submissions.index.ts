import { router } from "../../http/openapi";
import { CALLER_VARY, sendJsonValue } from "../../http/http-cache";
import { rejectAnonymousPosts } from "../../http/respond";
import { handle, operation } from "../../http/operation";
import * as routes from "./submissions.routes";
import { ctxFromRequest } from "../../http/context";
import { readSubmissionContent } from "./submissions.read";
import { createSubmission, getSubmission, listSubmissions } from "./submissions.service";

// The operations REST and MCP share (src/http/operation.ts). AIP-1 §1.4: anonymous (and
// unbound-registry) callers MUST get 403 ANONYMOUS_SUBMISSION_REJECTED.
export const submitOp = operation({
  route: routes.submitRoute,
  caller: "submitter",
  input: ({ param, json }) => ({ missionId: param.id, submission: json }),
  verb: createSubmission,
  once: (submitter, i) => routes.createSubmissionOnce(submitter, i.missionId),
  lists: true,
});

export const listSubmissionsOp = operation({
  route: routes.listSubmissionsRoute,
  input: ({ param, query }) => ({ missionId: param.id, ...query }),
  verb: listSubmissions,
});

export const getSubmissionOp = operation({
  route: routes.getSubmissionRoute,
  input: ({ param }) => ({ missionId: param.id, submissionId: param.sid }),
  verb: getSubmission,
});

const base = router();
base.use("/missions/:id/submissions", rejectAnonymousPosts);
base.use("/missions/:id/submit", rejectAnonymousPosts);

export const submissionsRouter = base
  .openapi(routes.submitRoute, handle(submitOp))
  // The alias has the route's request and answers: the same operation.
  .openapi(routes.submitAliasRoute, handle(submitOp))
  .openapi(routes.listSubmissionsRoute, handle(listSubmissionsOp))
  .openapi(routes.getSubmissionRoute, handle(getSubmissionOp, { send: (c, sub) => sendJsonValue(c, sub) }))
  .openapi(routes.submissionContentRoute, async (c) => {
    const p = c.req.valid("param");
    const r = await readSubmissionContent(ctxFromRequest(c), {
      missionId: p.id,
      submissionId: p.sid,
      ifNoneMatch: c.req.header("if-none-match"),
    });
    // Private until the mission is decided (the viewer's own cache only); immutable bytes either way.
    c.header("Vary", CALLER_VARY);
    if (r === "not_modified") return c.body(null, 304) as never;
    c.header("ETag", r.etag);
    c.header("Cache-Control", r.shared ? "public, max-age=86400, immutable" : "private, max-age=3600");
    // Never active content from the site's origin: a submitter-chosen script, page or style
    // type would be a `script-src 'self'` gadget. Passive types are served as declared; any
    // other as an octet-stream download. With nosniff, nothing else is ever executed.
    const passive = PASSIVE_TYPES.has(r.mediaType.split(";")[0]!.trim().toLowerCase());
    c.header("Content-Type", passive ? r.mediaType : "application/octet-stream");
    if (!passive) c.header("Content-Disposition", "attachment");
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Content-Security-Policy", "sandbox; default-src 'none'");
    c.header("Cross-Origin-Resource-Policy", "same-origin");
    return c.body(new Uint8Array(r.body), 200) as never;
  });

/** Media types a browser never executes (docs/security.md): served as declared by the content route. */
const PASSIVE_TYPES = new Set([
  "text/plain",
  "application/json",
  "application/octet-stream",
  "application/pdf",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);
