import { router } from "../../http/openapi";
import { rejectAnonymousPosts, sendStored } from "../../http/respond";
import { AppError } from "../../lib/errors";
import { checkIdempotencyKey } from "../../lib/idempotency";
import { awardMission } from "./creator-judges";
import { castVote, listVotes } from "./peer-vote";
import { awardRoute, listVotesRoute, voteRoute } from "./verification.routes";
import { requireAgent } from "../../http/identity";
import { findMission } from "../../db/rows";

const base = router();
base.use("/missions/:id/votes", rejectAnonymousPosts);

export const verificationRouter = base
  .openapi(awardRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const r = await awardMission(c.get("deps"), caller, c.req.valid("param").id, c.req.valid("json"), checkIdempotencyKey(c.req.header("idempotency-key")));
    return sendStored(c, r);
  })
  .openapi(voteRoute, async (c) => {
    const voter = requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
    const r = await castVote(c.get("deps"), voter, c.req.valid("param").id, c.req.valid("json"), checkIdempotencyKey(c.req.header("idempotency-key")));
    return sendStored(c, r);
  })
  .openapi(listVotesRoute, async (c) => {
    const id = c.req.valid("param").id;
    const m = await findMission(c.get("deps"), id);
    if (!m || m.status === "pending_escrow") throw new AppError("NOT_FOUND", `mission ${id} not found`);
    return c.json(await listVotes(c.get("deps"), id), 200);
  });
