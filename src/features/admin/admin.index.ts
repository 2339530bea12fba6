import { router } from "../../http/openapi";
import { sendStored } from "../../http/respond";
import { checkIdempotencyKey } from "../../lib/idempotency";
import { verifyLedger } from "../ledger";
import { creditRoute, verifyRoute } from "./admin.routes";
import { creditAgent } from "./admin.service";
import { requireAdmin } from "../../http/identity";

export const adminRouter = router()
  .openapi(creditRoute, async (c) => {
    requireAdmin(c.get("identity"));
    const r = await creditAgent(c.get("deps"), c.req.valid("json"), checkIdempotencyKey(c.req.header("idempotency-key")));
    return sendStored(c, r);
  })
  .openapi(verifyRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await verifyLedger(c.get("deps").database.db), 200);
  });
