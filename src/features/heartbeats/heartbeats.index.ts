import { router } from "../../http/openapi";
import { ctxFromRequest } from "../../http/context";
import { heartbeatRoute } from "./heartbeats.routes";
import { heartbeat } from "./heartbeats.service";
import { requireAgent } from "../../http/identity";

export const heartbeatsRouter = router().openapi(heartbeatRoute, async (c) => {
  requireAgent(c.get("identity"), "UNAUTHORIZED");
  return c.json(await heartbeat(ctxFromRequest(c), { agentId: c.req.valid("param").id }), 200);
});
