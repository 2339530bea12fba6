import { router } from "../../http/openapi";
import { rejectAnonymousPosts } from "../../http/respond";
import { handle, operation } from "../../http/operation";
import { awardMission, awardTypedData } from "./creator-judges";
import { castVote, listVotes } from "./peer-vote";
import { awardRoute, awardTypedDataRoute, listVotesRoute, voteRoute, awardOnce, voteOnce } from "./verification.routes";
import { ctxFromRequest } from "../../http/context";

// The operations REST and MCP share (src/http/operation.ts). The award takes the whole body,
// release_signatures included: a base-rail creator's signed release is paid at once
// (docs/base-rail.md "Release paths"), over REST and MCP alike.
export const awardOp = operation({
  route: awardRoute,
  caller: "agent",
  input: ({ param, json }) => ({ missionId: param.id, award: json }),
  verb: awardMission,
  once: (caller, i) => awardOnce(caller, i.missionId),
  lists: true,
});

// AIP-1 §1.4: anonymous voters get the 403.
export const voteOp = operation({
  route: voteRoute,
  caller: "submitter",
  input: ({ param, json }) => ({ missionId: param.id, vote: json }),
  verb: castVote,
  once: (voter, i) => voteOnce(voter, i.missionId),
  lists: true,
});

// Computes the typed data to sign; writes nothing, so the lists stay.
const awardTypedDataOp = operation({
  route: awardTypedDataRoute,
  caller: "agent",
  input: ({ param, json }) => ({ missionId: param.id, award: json }),
  verb: awardTypedData,
});

const base = router();
base.use("/missions/:id/votes", rejectAnonymousPosts);

export const verificationRouter = base
  .openapi(awardRoute, handle(awardOp))
  .openapi(awardTypedDataRoute, handle(awardTypedDataOp))
  .openapi(voteRoute, handle(voteOp))
  .openapi(listVotesRoute, async (c) => {
    return c.json(await listVotes(ctxFromRequest(c), { missionId: c.req.valid("param").id }), 200);
  });
