import { router } from "../../http/openapi";
import { agentCtx } from "../../http/handler";
import { heartbeatRoute } from "./heartbeats.routes";
import { heartbeat } from "./heartbeats.service";

export const heartbeatsRouter = router().openapi(heartbeatRoute, async (c) =>
  c.json(await heartbeat(agentCtx(c), { agentId: c.req.valid("param").id }), 200),
);
