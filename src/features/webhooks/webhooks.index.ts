import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import * as routes from "./webhooks.routes";
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks } from "./webhooks.service";
import { requireAgent } from "../../http/identity";

export const webhooksRouter = router()
  .openapi(routes.createWebhookRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await createWebhook(ctxFromRequest(c), c.req.valid("json")), 201);
  })
  .openapi(routes.listWebhooksRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await listWebhooks(ctxFromRequest(c), c.req.valid("query")), 200);
  })
  .openapi(routes.getWebhookRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await getWebhook(ctxFromRequest(c), { id: c.req.valid("param").id }), 200);
  })
  .openapi(routes.deleteWebhookRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    await deleteWebhook(ctxFromRequest(c), { id: c.req.valid("param").id });
    return c.body(null, 204);
  })
  .openapi(routes.listDeliveriesRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(
      await listDeliveries(ctxFromRequest(c), { id: c.req.valid("param").id, ...c.req.valid("query") }),
      200,
    );
  });
