import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { agentCtx } from "../../http/handler";
import { rejectAnonymousPosts } from "../../http/respond";
import { claimRoute, listClaimsRoute, releaseClaimRoute } from "./claims.routes";
import { claimMission, listClaims, releaseClaim } from "./claims.service";
import { requireAgent } from "../../http/identity";

const base = router();
// AIP-1 §1.4: anonymous sessions MUST NOT claim — the §1.4 403 body, before anything else.
base.use("/missions/:id/claims", rejectAnonymousPosts);

export const claimsRouter = base
  .openapi(claimRoute, async (c) => {
    requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
    const r = await claimMission(ctxFromRequest(c), { missionId: c.req.valid("param").id });
    return r.created ? c.json(r.claim, 201) : c.json(r.claim, 200);
  })
  .openapi(releaseClaimRoute, async (c) => {
    await releaseClaim(agentCtx(c), { missionId: c.req.valid("param").id });
    return c.body(null, 204);
  })
  .openapi(listClaimsRoute, async (c) =>
    c.json(await listClaims(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("query") }), 200),
  );
