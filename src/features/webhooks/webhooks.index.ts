import { router } from "../../http/openapi";
import { createWebhookRoute, deleteWebhookRoute, getWebhookRoute, listDeliveriesRoute, listWebhooksRoute } from "./webhooks.routes";
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks } from "./webhooks.service";
import { requireAgent } from "../../http/identity";

export const webhooksRouter = router()
  .openapi(createWebhookRoute, async (c) => {
    const owner = requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await createWebhook(c.get("deps"), owner, c.req.valid("json")), 201);
  })
  .openapi(listWebhooksRoute, async (c) => {
    const owner = requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await listWebhooks(c.get("deps"), owner, c.req.valid("query")), 200);
  })
  .openapi(getWebhookRoute, async (c) => {
    const owner = requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await getWebhook(c.get("deps"), owner, c.req.valid("param").id), 200);
  })
  .openapi(deleteWebhookRoute, async (c) => {
    const owner = requireAgent(c.get("identity"), "UNAUTHORIZED");
    await deleteWebhook(c.get("deps"), owner, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(listDeliveriesRoute, async (c) => {
    const owner = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const p = c.req.valid("param");
    return c.json(await listDeliveries(c.get("deps"), owner, p.id, c.req.valid("query")), 200);
  });
