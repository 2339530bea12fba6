import type { Context } from "hono";
import { router } from "../../http/openapi";
import { rejectAnonymousPosts, sendStored } from "../../http/respond";
import type { AppEnv } from "../../http/types";
import { checkIdempotencyKey } from "../../lib/idempotency";
import { requireAgent } from "../auth/auth.service";
import { getSubmissionRoute, listSubmissionsRoute, submitAliasRoute, submitRoute } from "./submissions.routes";
import { createSubmission, getSubmission, listSubmissions } from "./submissions.service";
import type { CreateSubmissionInput } from "./submissions.schemas";

const viewerOf = (c: Context<AppEnv>) => {
  const id = c.get("identity");
  return id.kind === "agent" ? id.address : undefined;
};

async function submit(c: Context<AppEnv>, missionId: string, body: CreateSubmissionInput) {
  // AIP-1 §1.4: anonymous (and unbound-registry) callers MUST get 403 ANONYMOUS_SUBMISSION_REJECTED.
  const submitter = requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
  const key = checkIdempotencyKey(c.req.header("idempotency-key"));
  const r = await createSubmission(c.get("deps"), submitter, missionId, body, key);
  return sendStored(c, r);
}

const base = router();
base.use("/missions/:id/submissions", rejectAnonymousPosts);
base.use("/missions/:id/submit", rejectAnonymousPosts);

export const submissionsRouter = base
  .openapi(submitRoute, (c) => submit(c, c.req.valid("param").id, c.req.valid("json")) as never)
  .openapi(submitAliasRoute, (c) => submit(c, c.req.valid("param").id, c.req.valid("json")) as never)
  .openapi(listSubmissionsRoute, async (c) =>
    c.json(await listSubmissions(c.get("deps"), c.req.valid("param").id, viewerOf(c), c.req.valid("query")), 200))
  .openapi(getSubmissionRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await getSubmission(c.get("deps"), p.id, p.sid, viewerOf(c)), 200);
  });
