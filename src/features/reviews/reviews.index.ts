import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import * as routes from "./reviews.routes";
import { createReview, deleteReview, getReview, listReviews, updateReview } from "./reviews.service";
import { requireAgent } from "../../http/identity";

export const reviewsRouter = router()
  .openapi(routes.createReviewRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(
      await createReview(ctxFromRequest(c), { agentId: c.req.valid("param").id, review: c.req.valid("json") }),
      201,
    );
  })
  .openapi(routes.listReviewsRoute, async (c) =>
    c.json(await listReviews(ctxFromRequest(c), { agentId: c.req.valid("param").id, ...c.req.valid("query") }), 200),
  )
  .openapi(routes.getReviewRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await getReview(ctxFromRequest(c), { agentId: p.id, reviewId: p.review_id }), 200);
  })
  .openapi(routes.updateReviewRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    const p = c.req.valid("param");
    return c.json(
      await updateReview(ctxFromRequest(c), { agentId: p.id, reviewId: p.review_id, review: c.req.valid("json") }),
      200,
    );
  })
  .openapi(routes.deleteReviewRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    const p = c.req.valid("param");
    await deleteReview(ctxFromRequest(c), { agentId: p.id, reviewId: p.review_id });
    return c.body(null, 204);
  });
