import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { sendStored } from "../../http/respond";
import { requireAgent } from "../../http/identity";
import { checkIdempotencyKey, idempotent } from "../../lib/idempotency";
import { amendMissionOnce, amendMissionRoute, listAmendmentsRoute } from "./amendments.routes";
import { amendMission, listAmendments } from "./amendments.service";

export const amendmentsRouter = router()
  .openapi(amendMissionRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const missionId = c.req.valid("param").id;
    const input = c.req.valid("json");
    const key = checkIdempotencyKey(c.req.header("idempotency-key"));
    const r = await idempotent(
      ctxFromRequest(c),
      { key, request: input, ...amendMissionOnce(caller, missionId) },
      (ctx) => amendMission(ctx, { missionId, input }),
    );
    return sendStored(c, r);
  })
  .openapi(listAmendmentsRoute, async (c) =>
    c.json(
      await listAmendments(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("query") }),
      200,
    ),
  );
