import { router } from "../../http/openapi";
import { sendOnce } from "../../http/handler";
import { verifyLedger } from "../ledger";
import { creditRoute, verifyRoute, creditOnce } from "./admin.routes";
import { creditAgent } from "./admin.service";
import { requireAdmin } from "../../http/identity";

export const adminRouter = router()
  .openapi(creditRoute, async (c) => {
    requireAdmin(c.get("identity"));
    const input = c.req.valid("json");
    return sendOnce(c, { request: input, ...creditOnce }, (ctx) => creditAgent(ctx, input));
  })
  .openapi(verifyRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await verifyLedger(c.get("deps").database.db), 200);
  });
