import { createHash } from "node:crypto";
import { ctxFromRequest } from "../../http/context";
import { preSerialized, sendJsonDoc } from "../../http/http-cache";
import { router } from "../../http/openapi";
import { publicStats, STATS_TTL_MS } from "./stats.service";
import { listPaidPayouts, transparency } from "./transparency.service";
import { payoutsAtomRoute, payoutsFeedRoute, statsRoute, transparencyRoute } from "./transparency.routes";
import { payoutsAtom } from "./transparency.feed";

export const transparencyRouter = router()
  .openapi(transparencyRoute, async (c) => {
    c.header("Cache-Control", "public, max-age=10");
    return c.json(await transparency(ctxFromRequest(c)), 200);
  })
  .openapi(payoutsFeedRoute, async (c) => {
    c.header("Cache-Control", "public, max-age=5, stale-while-revalidate=30");
    return c.json(await listPaidPayouts(ctxFromRequest(c), c.req.valid("query")), 200);
  })
  .openapi(payoutsAtomRoute, async (c) => {
    const ctx = ctxFromRequest(c);
    const page = await listPaidPayouts(ctx, c.req.valid("query"));
    c.header("Cache-Control", "public, max-age=60");
    return c.body(payoutsAtom(ctx, page), 200, {
      "Content-Type": "application/atom+xml; charset=utf-8",
    }) as never;
  })
  .openapi(statsRoute, async (c) => {
    const doc = await publicStats(ctxFromRequest(c));
    const body = JSON.stringify(doc);
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    c.header("Cache-Control", `public, max-age=${STATS_TTL_MS / 1000}`);
    return preSerialized<typeof doc>(sendJsonDoc(c, { etag, body }));
  });
