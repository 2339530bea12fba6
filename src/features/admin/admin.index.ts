import { router } from "../../http/openapi";
import { sendStored } from "../../http/respond";
import { checkIdempotencyKey, idempotent } from "../../lib/idempotency";
import { verifyLedger } from "../ledger";
import { creditRoute, verifyRoute, creditOnce } from "./admin.routes";
import { ctxFromRequest } from "../../http/context";
import { creditAgent } from "./admin.service";
import { requireAdmin } from "../../http/identity";

export const adminRouter = router()
  .openapi(creditRoute, async (c) => {
    requireAdmin(c.get("identity"));
    const input = c.req.valid("json");
    const r = await idempotent(
      ctxFromRequest(c),
      { key: checkIdempotencyKey(c.req.header("idempotency-key")), request: input, ...creditOnce },
      (ctx) => creditAgent(ctx, input),
    );
    return sendStored(c, r);
  })
  .openapi(verifyRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await verifyLedger(c.get("deps").database.db), 200);
  });
