import { router } from "../../http/openapi";
import { ctxFromRequest } from "../../http/context";
import { heartbeatRoute } from "./heartbeats.routes";
import { heartbeat } from "./heartbeats.service";

// Who may beat is the verb's check (an agent for itself, or a private mesh's shared key).
export const heartbeatsRouter = router().openapi(heartbeatRoute, async (c) =>
  c.json(await heartbeat(ctxFromRequest(c), { agentId: c.req.valid("param").id }), 200),
);
