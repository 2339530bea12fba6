import { router } from "../../http/openapi";
import { rejectAnonymousPosts, sendStored } from "../../http/respond";
import { checkIdempotencyKey, idempotent } from "../../lib/idempotency";
import { awardMission, awardTypedData } from "./creator-judges";
import { castVote, listVotes } from "./peer-vote";
import { awardRoute, awardTypedDataRoute, listVotesRoute, voteRoute, awardOnce, voteOnce } from "./verification.routes";
import { requireAgent } from "../../http/identity";
import { ctxFromRequest } from "../../http/context";

const base = router();
base.use("/missions/:id/votes", rejectAnonymousPosts);

export const verificationRouter = base
  .openapi(awardRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const missionId = c.req.valid("param").id;
    const award = c.req.valid("json");
    const r = await idempotent(
      ctxFromRequest(c),
      { key: checkIdempotencyKey(c.req.header("idempotency-key")), request: award, ...awardOnce(caller, missionId) },
      (ctx) => awardMission(ctx, { missionId, award }),
    );
    return sendStored(c, r);
  })
  .openapi(awardTypedDataRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    const missionId = c.req.valid("param").id;
    return c.json(await awardTypedData(ctxFromRequest(c), { missionId, award: c.req.valid("json") }), 200);
  })
  .openapi(voteRoute, async (c) => {
    const voter = requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
    const missionId = c.req.valid("param").id;
    const vote = c.req.valid("json");
    const r = await idempotent(
      ctxFromRequest(c),
      { key: checkIdempotencyKey(c.req.header("idempotency-key")), request: vote, ...voteOnce(voter, missionId) },
      (ctx) => castVote(ctx, { missionId, vote }),
    );
    return sendStored(c, r);
  })
  .openapi(listVotesRoute, async (c) => {
    return c.json(await listVotes(ctxFromRequest(c), { missionId: c.req.valid("param").id }), 200);
  });
