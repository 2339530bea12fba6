import { router } from "../../http/openapi";
import { rejectAnonymousPosts } from "../../http/respond";
import { ctxFromRequest } from "../../http/context";
import { commit, listCommitments } from "./commit-reveal";
import { commitRoute, listCommitmentsRoute } from "./commit-reveal.routes";
import { handle, operation } from "../../http/operation";

// AIP-1 §1.4: anonymous committers get the 403 (src/http/operation.ts).
const commitOp = operation({
  route: commitRoute,
  caller: "submitter",
  input: ({ param, json }) => ({ missionId: param.id, ...json }),
  verb: commit,
  lists: true,
});

const base = router();
base.use("/missions/:id/commitments", rejectAnonymousPosts);

export const commitRevealRouter = base
  .openapi(commitRoute, handle(commitOp))
  .openapi(listCommitmentsRoute, async (c) => {
    return c.json(await listCommitments(ctxFromRequest(c), { missionId: c.req.valid("param").id }), 200);
  });
