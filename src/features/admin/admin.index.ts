import { router } from "../../http/openapi";
import { sendStored } from "../../http/respond";
import { ctxFromRequest } from "../../http/context";
import { checkIdempotencyKey, idempotent } from "../../lib/idempotency";
import { requireAdmin } from "../auth/auth.service";
import { verifyLedger } from "../ledger/ledger.service";
import { creditOnce, creditRoute, verifyRoute } from "./admin.routes";
import { creditAgent } from "./admin.service";

export const adminRouter = router()
  .openapi(creditRoute, async (c) => {
    requireAdmin(c.get("identity"));
    const input = c.req.valid("json");
    const r = await idempotent(ctxFromRequest(c), { key: checkIdempotencyKey(c.req.header("idempotency-key")), request: input, ...creditOnce },
      (ctx) => creditAgent(ctx, input));
    return sendStored(c, r);
  })
  .openapi(verifyRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await verifyLedger(c.get("deps").database.db), 200);
  });
