import { router } from "../../http/openapi";
import { agentCtx } from "../../http/handler";
import { ctxFromRequest } from "../../http/context";
import { sendJsonValue } from "../../http/http-cache";
import { handle, operation } from "../../http/operation";
import { AppError } from "../../lib/errors";
import * as routes from "./agents.routes";
import { getAgent, getAgentBalance, getAgentHistory, updateAgent } from "./agents.service";
import { getBlocklist, putBlocklist } from "./agents.blocklist";

// The operations REST and MCP share (src/http/operation.ts).
export const getAgentOp = operation({
  route: routes.getAgentRoute,
  input: ({ param }) => ({ agentId: param.id }),
  verb: getAgent,
});

export const agentBalanceOp = operation({
  route: routes.agentBalanceRoute,
  // The path always names the agent; MCP's get_balance may leave it out to mean the signed-in caller.
  input: ({ param }, { identity }) => {
    const agentId = param.id ?? (identity.kind === "agent" ? identity.address : undefined);
    if (!agentId) throw new AppError("UNAUTHORIZED", "give agent_id, or sign in to read your own balance");
    return { agentId };
  },
  verb: getAgentBalance,
});

export const agentsRouter = router()
  .openapi(routes.getAgentRoute, handle(getAgentOp, { send: (c, agent) => sendJsonValue(c, agent) }))
  .openapi(routes.updateAgentRoute, async (c) =>
    c.json(await updateAgent(agentCtx(c), { agentId: c.req.valid("param").id, profile: c.req.valid("json") }), 200),
  )
  .openapi(routes.agentBalanceRoute, handle(agentBalanceOp))
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
