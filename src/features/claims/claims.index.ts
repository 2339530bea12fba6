import type { Context } from "hono";
import { router } from "../../http/openapi";
import { rejectAnonymousPosts } from "../../http/respond";
import type { AppEnv } from "../../http/types";
import { claimRoute, listClaimsRoute, releaseClaimRoute } from "./claims.routes";
import { claimMission, listClaims, releaseClaim } from "./claims.service";
import { requireAgent } from "../../http/identity";

const viewerOf = (c: Context<AppEnv>) => {
  const id = c.get("identity");
  return id.kind === "agent" ? id.address : undefined;
};

const base = router();
// AIP-1 §1.4: anonymous sessions MUST NOT claim — the §1.4 403 body, before anything else.
base.use("/missions/:id/claims", rejectAnonymousPosts);

export const claimsRouter = base
  .openapi(claimRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "ANONYMOUS_SUBMISSION_REJECTED");
    const r = await claimMission(c.get("deps"), caller, c.req.valid("param").id);
    return r.created ? c.json(r.claim, 201) : c.json(r.claim, 200);
  })
  .openapi(releaseClaimRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    await releaseClaim(c.get("deps"), caller, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(listClaimsRoute, async (c) =>
    c.json(await listClaims(c.get("deps"), c.req.valid("param").id, viewerOf(c), c.req.valid("query")), 200));
