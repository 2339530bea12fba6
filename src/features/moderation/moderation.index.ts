import { ctxFromRequest } from "../../http/context";
import { requireAdmin, requireAgent } from "../../http/identity";
import { router } from "../../http/openapi";
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

export const moderationRouter = router()
  .openapi(routes.hideRoute, async (c) => {
    requireAdmin(c.get("identity"));
    const r = await hideMission(ctxFromRequest(c), { id: c.req.valid("param").id, ...c.req.valid("json") });
    c.get("deps").missionLists.invalidate(); // read-your-writes on this instance (app.ts)
    return c.json(r, 200);
  })
  .openapi(routes.unhideRoute, async (c) => {
    requireAdmin(c.get("identity"));
    const r = await unhideMission(ctxFromRequest(c), { id: c.req.valid("param").id, ...c.req.valid("json") });
    c.get("deps").missionLists.invalidate();
    return c.json(r, 200);
  })
  .openapi(routes.getSuspensionRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await getSuspension(ctxFromRequest(c), c.req.valid("param")), 200);
  })
  .openapi(routes.suspendRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await suspendAgent(ctxFromRequest(c), { ...c.req.valid("param"), ...c.req.valid("json") }), 200);
  })
  .openapi(routes.unsuspendRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await unsuspendAgent(ctxFromRequest(c), { ...c.req.valid("param"), ...c.req.valid("json") }), 200);
  })
  .openapi(routes.reportRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    const r = await reportMission(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("json") });
    return c.json(r, 201);
  })
  .openapi(routes.listReportsRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await listReports(ctxFromRequest(c), c.req.valid("query")), 200);
  })
  .openapi(routes.resolveReportRoute, async (c) => {
    requireAdmin(c.get("identity"));
    const r = await closeReport(ctxFromRequest(c), {
      id: c.req.valid("param").id,
      outcome: "resolved",
      ...c.req.valid("json"),
    });
    return c.json(r, 200);
  })
  .openapi(routes.dismissReportRoute, async (c) => {
    requireAdmin(c.get("identity"));
    const r = await closeReport(ctxFromRequest(c), {
      id: c.req.valid("param").id,
      outcome: "dismissed",
      ...c.req.valid("json"),
    });
    return c.json(r, 200);
  })
  .openapi(routes.listAllowlistRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await listAllowlist(ctxFromRequest(c), c.req.valid("query")), 200);
  })
  .openapi(routes.putAllowlistRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await allowPosting(ctxFromRequest(c), { ...c.req.valid("param"), ...c.req.valid("json") }), 200);
  })
  .openapi(routes.deleteAllowlistRoute, async (c) => {
    requireAdmin(c.get("identity"));
    await disallowPosting(ctxFromRequest(c), c.req.valid("param"));
    return c.body(null, 204);
  })
  .openapi(routes.auditRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await listAudit(ctxFromRequest(c), c.req.valid("query")), 200);
  });
