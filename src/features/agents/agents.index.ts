import { router } from "../../http/openapi";
import { agentCtx } from "../../http/handler";
import { ctxFromRequest } from "../../http/context";
import { sendJsonValue } from "../../http/http-cache";
import * as routes from "./agents.routes";
import { getAgent, getAgentBalance, getAgentHistory, updateAgent } from "./agents.service";
import { getBlocklist, putBlocklist } from "./agents.blocklist";

export const agentsRouter = router()
  .openapi(routes.getAgentRoute, async (c) => {
    const agent = await getAgent(ctxFromRequest(c), { agentId: c.req.valid("param").id });
    return sendJsonValue(c, agent);
  })
  .openapi(routes.updateAgentRoute, async (c) =>
    c.json(await updateAgent(agentCtx(c), { agentId: c.req.valid("param").id, profile: c.req.valid("json") }), 200),
  )
  .openapi(routes.agentBalanceRoute, async (c) =>
    c.json(await getAgentBalance(ctxFromRequest(c), { agentId: c.req.valid("param").id }), 200),
  )
  .openapi(routes.agentHistoryRoute, async (c) =>
    c.json(
      (await getAgentHistory(ctxFromRequest(c), {
        agentId: c.req.valid("param").id,
        ...c.req.valid("query"),
      })) as never,
      200,
    ),
  )
  .openapi(routes.getBlocklistRoute, async (c) =>
    c.json(await getBlocklist(agentCtx(c), { agentId: c.req.valid("param").id }), 200),
  )
  .openapi(routes.putBlocklistRoute, async (c) =>
    c.json(await putBlocklist(agentCtx(c), { agentId: c.req.valid("param").id, list: c.req.valid("json") }), 200),
  );
