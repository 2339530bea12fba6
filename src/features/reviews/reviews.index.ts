import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { agentCtx } from "../../http/handler";
import * as routes from "./reviews.routes";
import { createReview, deleteReview, getReview, listReviews, updateReview } from "./reviews.service";

export const reviewsRouter = router()
  .openapi(routes.createReviewRoute, async (c) =>
    c.json(await createReview(agentCtx(c), { agentId: c.req.valid("param").id, review: c.req.valid("json") }), 201),
  )
  .openapi(routes.listReviewsRoute, async (c) =>
    c.json(await listReviews(ctxFromRequest(c), { agentId: c.req.valid("param").id, ...c.req.valid("query") }), 200),
  )
  .openapi(routes.getReviewRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await getReview(ctxFromRequest(c), { agentId: p.id, reviewId: p.review_id }), 200);
  })
  .openapi(routes.updateReviewRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(
      await updateReview(agentCtx(c), { agentId: p.id, reviewId: p.review_id, review: c.req.valid("json") }),
      200,
    );
  })
  .openapi(routes.deleteReviewRoute, async (c) => {
    const p = c.req.valid("param");
    await deleteReview(agentCtx(c), { agentId: p.id, reviewId: p.review_id });
    return c.body(null, 204);
  });
