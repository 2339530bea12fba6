import { router } from "../../http/openapi";
import { agentCtx, sendOnce } from "../../http/handler";
import { ctxFromRequest } from "../../http/context";
import { agentOf } from "../../lib/context";
import * as r from "./withdrawals.routes";
import { adminWithdrawals, decideWithdrawal, myWithdrawals, requestWithdrawal } from "./withdrawals.service";

export const withdrawalsRouter = router()
  .openapi(r.requestWithdrawalRoute, async (c) => {
    const input = c.req.valid("json");
    const agent = agentOf(agentCtx(c));
    return sendOnce(c, { request: input, ...r.withdrawOnce(agent) }, (ctx) => requestWithdrawal(ctx, input));
  })
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
