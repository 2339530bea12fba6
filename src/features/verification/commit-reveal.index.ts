import { router } from "../../http/openapi";
import { rejectAnonymousPosts } from "../../http/respond";
import { ctxFromRequest } from "../../http/context";
import { commit, listCommitments } from "./commit-reveal";
import { commitRoute, listCommitmentsRoute } from "./commit-reveal.routes";
import { requireAgent } from "../../http/identity";

const base = router();
base.use("/missions/:id/commitments", rejectAnonymousPosts);

export const commitRevealRouter = base
  .openapi(commitRoute, async (c) => {
    requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
    return c.json(await commit(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("json") }), 201);
  })
  .openapi(listCommitmentsRoute, async (c) => {
    return c.json(await listCommitments(ctxFromRequest(c), { missionId: c.req.valid("param").id }), 200);
  });
