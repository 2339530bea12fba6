import { router } from "../../http/openapi";
import { heartbeatRoute } from "./heartbeats.routes";
import { heartbeat } from "./heartbeats.service";
import { requireAgent } from "../../http/identity";

export const heartbeatsRouter = router().openapi(heartbeatRoute, async (c) => {
  const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
  return c.json(await heartbeat(c.get("deps"), caller, c.req.valid("param").id), 200);
});
