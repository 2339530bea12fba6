import type { MiddlewareHandler } from "hono";
import { router } from "../../http/openapi";
import type { AppEnv } from "../../http/types";
import { AppError } from "../../lib/errors";
import { checkIdempotencyKey } from "../../lib/idempotency";
import { requireAgent } from "../auth/auth.service";
import { findMission } from "../missions/missions.service";
import { awardMission } from "./creator-judges";
import { castVote, listVotes } from "./peer-vote";
import { awardRoute, listVotesRoute, voteRoute } from "./verification.routes";

// AIP-1 §1.4: anonymous callers MUST NOT vote — the 403 comes before the body is validated.
const identityFirst: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "POST") requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
  await next();
};

const base = router();
base.use("/missions/:id/votes", identityFirst);

export const verificationRouter = base
  .openapi(awardRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const r = await awardMission(c.get("deps"), caller, c.req.valid("param").id, c.req.valid("json"), checkIdempotencyKey(c.req.header("idempotency-key")));
    if (r.replayed) c.header("Idempotent-Replayed", "true");
    c.header("Content-Type", "application/json; charset=utf-8");
    return c.body(r.body, r.status as 200) as never;
  })
  .openapi(voteRoute, async (c) => {
    const voter = requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
    const r = await castVote(c.get("deps"), voter, c.req.valid("param").id, c.req.valid("json"), checkIdempotencyKey(c.req.header("idempotency-key")));
    if (r.replayed) c.header("Idempotent-Replayed", "true");
    c.header("Content-Type", "application/json; charset=utf-8");
    return c.body(r.body, r.status as 201) as never;
  })
  .openapi(listVotesRoute, async (c) => {
    const id = c.req.valid("param").id;
    const m = await findMission(c.get("deps"), id);
    if (!m || m.status === "pending_escrow") throw new AppError("NOT_FOUND", `mission ${id} not found`);
    return c.json(await listVotes(c.get("deps"), id), 200);
  });
