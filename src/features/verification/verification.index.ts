import { router } from "../../http/openapi";
import { rejectAnonymousPosts } from "../../http/respond";
import { agentCtx, sendMissionWriteOnce } from "../../http/handler";
import { awardMission, awardTypedData } from "./creator-judges";
import { castVote, listVotes } from "./peer-vote";
import { awardRoute, awardTypedDataRoute, listVotesRoute, voteRoute, awardOnce, voteOnce } from "./verification.routes";
import { ctxFromRequest } from "../../http/context";

const base = router();
base.use("/missions/:id/votes", rejectAnonymousPosts);

export const verificationRouter = base
  .openapi(awardRoute, (c) =>
    sendMissionWriteOnce(c, "UNAUTHORIZED", awardOnce, (ctx, missionId, award) =>
      awardMission(ctx, { missionId, award }),
    ),
  )
  .openapi(awardTypedDataRoute, async (c) =>
    c.json(await awardTypedData(agentCtx(c), { missionId: c.req.valid("param").id, award: c.req.valid("json") }), 200),
  )
  .openapi(voteRoute, (c) =>
    sendMissionWriteOnce(c, "ANONYMOUS_SUBMISSION_REJECTED", voteOnce, (ctx, missionId, vote) =>
      castVote(ctx, { missionId, vote }),
    ),
  )
  .openapi(listVotesRoute, async (c) => {
    return c.json(await listVotes(ctxFromRequest(c), { missionId: c.req.valid("param").id }), 200);
  });
