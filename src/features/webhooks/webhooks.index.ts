import { router } from "../../http/openapi";
import { agentCtx } from "../../http/handler";
import * as routes from "./webhooks.routes";
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks } from "./webhooks.service";

export const webhooksRouter = router()
  .openapi(routes.createWebhookRoute, async (c) => c.json(await createWebhook(agentCtx(c), c.req.valid("json")), 201))
  .openapi(routes.listWebhooksRoute, async (c) => c.json(await listWebhooks(agentCtx(c), c.req.valid("query")), 200))
  .openapi(routes.getWebhookRoute, async (c) =>
    c.json(await getWebhook(agentCtx(c), { id: c.req.valid("param").id }), 200),
  )
  .openapi(routes.deleteWebhookRoute, async (c) => {
    await deleteWebhook(agentCtx(c), { id: c.req.valid("param").id });
    return c.body(null, 204);
  })
  .openapi(routes.listDeliveriesRoute, async (c) =>
    c.json(await listDeliveries(agentCtx(c), { id: c.req.valid("param").id, ...c.req.valid("query") }), 200),
  );
