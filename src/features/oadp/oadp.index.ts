import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { callerKey } from "../../http/client-ip";
import { AppError } from "../../lib/errors";
import { listHubs, reportHub } from "./federation.service";
import { pong } from "./oadp.pong";
import { federationReportRoute, listHubsRoute, pingRoute } from "./oadp.routes";

export const oadpRouter = router()
  .openapi(pingRoute, async (c) => {
    const deps = c.get("deps");
    if (!deps.config.oadp.pingEnabled)
      throw new AppError("SERVICE_UNAVAILABLE", "ping is disabled on this hub (OABP_OADP_PING_ENABLED)", {
        reason: "ping_disabled",
      });
    const body = c.req.valid("json") as { nonce?: string };
    return c.json(await pong(ctxFromRequest(c), { nonce: body.nonce }), 200);
  })
  .openapi(federationReportRoute, async (c) => {
    return c.json(
      await reportHub(ctxFromRequest(c), {
        callerKey: callerKey(c),
        report: c.req.valid("json"),
      }),
      200,
    );
  })
  .openapi(listHubsRoute, async (c) => c.json(await listHubs(ctxFromRequest(c), c.req.valid("query")), 200));
