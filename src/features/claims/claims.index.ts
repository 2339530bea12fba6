import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { handle, operation } from "../../http/operation";
import { rejectAnonymousPosts } from "../../http/respond";
import { claimRoute, listClaimsRoute, releaseClaimRoute } from "./claims.routes";
import { claimMission, listClaims, releaseClaim } from "./claims.service";

// The operations REST and MCP share (src/http/operation.ts). AIP-1 §1.4: anonymous sessions
// MUST NOT claim. A new claim is 201, a renewal 200.
export const claimOp = operation({
  route: claimRoute,
  caller: "submitter",
  input: ({ param }) => ({ missionId: param.id }),
  verb: claimMission,
  answer: (r) => ({ status: r.created ? 201 : 200, body: r.claim }),
  lists: true,
});

const releaseClaimOp = operation({
  route: releaseClaimRoute,
  caller: "agent",
  input: ({ param }) => ({ missionId: param.id }),
  verb: releaseClaim,
  answer: () => ({ status: 204, body: undefined }),
  lists: true,
});

const base = router();
// AIP-1 §1.4: anonymous sessions MUST NOT claim — the §1.4 403 body, before anything else.
base.use("/missions/:id/claims", rejectAnonymousPosts);

export const claimsRouter = base
  .openapi(claimRoute, handle(claimOp))
  .openapi(releaseClaimRoute, handle(releaseClaimOp))
  .openapi(listClaimsRoute, async (c) =>
    c.json(await listClaims(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("query") }), 200),
  );
