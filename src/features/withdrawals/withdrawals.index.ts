import { router } from "../../http/openapi";
import { agentCtx } from "../../http/handler";
import { handle, operation } from "../../http/operation";
import { ctxFromRequest } from "../../http/context";
import * as r from "./withdrawals.routes";
import { adminWithdrawals, decideWithdrawal, myWithdrawals, requestWithdrawal } from "./withdrawals.service";

// The operation REST and MCP share (src/http/operation.ts).
export const withdrawOp = operation({
  route: r.requestWithdrawalRoute,
  caller: "agent",
  input: ({ json }) => json,
  verb: requestWithdrawal,
  once: (agent) => r.withdrawOnce(agent),
});

export const withdrawalsRouter = router()
  .openapi(r.requestWithdrawalRoute, handle(withdrawOp))
  .openapi(r.listWithdrawalsRoute, async (c) => c.json(await myWithdrawals(agentCtx(c)), 200))
  .openapi(r.adminWithdrawalsRoute, async (c) =>
    c.json(await adminWithdrawals(ctxFromRequest(c), c.req.valid("query").state), 200),
  )
  .openapi(r.approveWithdrawalRoute, async (c) =>
    c.json(await decideWithdrawal(ctxFromRequest(c), { id: c.req.valid("param").id, decision: "approve" }), 200),
  )
  .openapi(r.rejectWithdrawalRoute, async (c) =>
    c.json(
      await decideWithdrawal(ctxFromRequest(c), {
        id: c.req.valid("param").id,
        decision: "reject",
        reason: c.req.valid("json").reason,
      }),
      200,
    ),
  );
