import type { MiddlewareHandler } from "hono";
import { router } from "../../http/openapi";
import type { AppEnv } from "../../http/types";
import { AppError } from "../../lib/errors";
import { requireAgent } from "../auth/auth.service";
import { findMission } from "../missions/missions.service";
import { commit, listCommitments } from "./commit-reveal";
import { commitRoute, listCommitmentsRoute } from "./commit-reveal.routes";

// A commitment is a submission in disguise: anonymous callers get the §1.4 403 before validation.
const identityFirst: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "POST") requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
  await next();
};

const base = router();
base.use("/missions/:id/commitments", identityFirst);

export const commitRevealRouter = base
  .openapi(commitRoute, async (c) => {
    const committer = requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
    return c.json(await commit(c.get("deps"), committer, c.req.valid("param").id, c.req.valid("json")), 201);
  })
  .openapi(listCommitmentsRoute, async (c) => {
    const id = c.req.valid("param").id;
    const m = await findMission(c.get("deps"), id);
    if (!m || m.status === "pending_escrow") throw new AppError("NOT_FOUND", `mission ${id} not found`);
    return c.json(await listCommitments(c.get("deps"), id), 200);
  });
