import type { Context } from "hono";
import { ctxFromRequest } from "../../http/context";
import { requireAdmin } from "../../http/identity";
import { router } from "../../http/openapi";
import { handle, operation } from "../../http/operation";
import type { AppEnv } from "../../http/types";
import type { Ctx } from "../../lib/context";
import * as routes from "./moderation.routes";
import {
  allowPosting,
  closeReport,
  disallowPosting,
  getSuspension,
  hideMission,
  listAllowlist,
  listAudit,
  listReports,
  reportMission,
  suspendAgent,
  unhideMission,
  unsuspendAgent,
} from "./moderation.service";

/**
 * An operator route's verb context: the admin token is required in the handler, so after the
 * route's validation (a bad request is 400 before it is 401/403), as on every /admin route.
 */
function adminCtx(c: Context<AppEnv>): Ctx {
  requireAdmin(c.get("identity"));
  return ctxFromRequest(c);
}

// A report on a mission (src/http/operation.ts): a hidden mission leaves the lists.
const reportOp = operation({
  route: routes.reportRoute,
  caller: "agent",
  input: ({ param, json }) => ({ missionId: param.id, ...json }),
  verb: reportMission,
  lists: true,
});

export const moderationRouter = router()
  .openapi(routes.hideRoute, async (c) => {
    const r = await hideMission(adminCtx(c), { id: c.req.valid("param").id, ...c.req.valid("json") });
    c.get("deps").missionLists.invalidate(); // read-your-writes on this instance (app.ts)
    return c.json(r, 200);
  })
  .openapi(routes.unhideRoute, async (c) => {
    const r = await unhideMission(adminCtx(c), { id: c.req.valid("param").id, ...c.req.valid("json") });
    c.get("deps").missionLists.invalidate();
    return c.json(r, 200);
  })
  .openapi(routes.getSuspensionRoute, async (c) => c.json(await getSuspension(adminCtx(c), c.req.valid("param")), 200))
  .openapi(routes.suspendRoute, async (c) =>
    c.json(await suspendAgent(adminCtx(c), { ...c.req.valid("param"), ...c.req.valid("json") }), 200),
  )
  .openapi(routes.unsuspendRoute, async (c) =>
    c.json(await unsuspendAgent(adminCtx(c), { ...c.req.valid("param"), ...c.req.valid("json") }), 200),
  )
  .openapi(routes.reportRoute, handle(reportOp))
  .openapi(routes.listReportsRoute, async (c) => c.json(await listReports(adminCtx(c), c.req.valid("query")), 200))
  .openapi(routes.resolveReportRoute, async (c) => {
    const input = { id: c.req.valid("param").id, outcome: "resolved" as const, ...c.req.valid("json") };
    return c.json(await closeReport(adminCtx(c), input), 200);
  })
  .openapi(routes.dismissReportRoute, async (c) => {
    const input = { id: c.req.valid("param").id, outcome: "dismissed" as const, ...c.req.valid("json") };
    return c.json(await closeReport(adminCtx(c), input), 200);
  })
  .openapi(routes.listAllowlistRoute, async (c) => c.json(await listAllowlist(adminCtx(c), c.req.valid("query")), 200))
  .openapi(routes.putAllowlistRoute, async (c) =>
    c.json(await allowPosting(adminCtx(c), { ...c.req.valid("param"), ...c.req.valid("json") }), 200),
  )
  .openapi(routes.deleteAllowlistRoute, async (c) => {
    await disallowPosting(adminCtx(c), c.req.valid("param"));
    return c.body(null, 204);
  })
  .openapi(routes.auditRoute, async (c) => c.json(await listAudit(adminCtx(c), c.req.valid("query")), 200));
