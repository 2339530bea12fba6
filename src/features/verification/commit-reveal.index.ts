import { router } from "../../http/openapi";
import { rejectAnonymousPosts } from "../../http/respond";
import { AppError } from "../../lib/errors";
import { commit, listCommitments } from "./commit-reveal";
import { commitRoute, listCommitmentsRoute } from "./commit-reveal.routes";
import { requireAgent } from "../../http/identity";
import { findMission } from "../../db/rows";

const base = router();
base.use("/missions/:id/commitments", rejectAnonymousPosts);

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
