import { router } from "../../http/openapi";
import { createReviewRoute, deleteReviewRoute, getReviewRoute, listReviewsRoute, updateReviewRoute } from "./reviews.routes";
import { createReview, deleteReview, getReview, listReviews, updateReview } from "./reviews.service";
import { requireAgent } from "../../http/identity";

export const reviewsRouter = router()
  .openapi(createReviewRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await createReview(c.get("deps"), caller, c.req.valid("param").id, c.req.valid("json")), 201);
  })
  .openapi(listReviewsRoute, async (c) => c.json(await listReviews(c.get("deps"), c.req.valid("param").id, c.req.valid("query")), 200))
  .openapi(getReviewRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await getReview(c.get("deps"), p.id, p.review_id), 200);
  })
  .openapi(updateReviewRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const p = c.req.valid("param");
    return c.json(await updateReview(c.get("deps"), caller, p.id, p.review_id, c.req.valid("json")), 200);
  })
  .openapi(deleteReviewRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const p = c.req.valid("param");
    await deleteReview(c.get("deps"), caller, p.id, p.review_id);
    return c.body(null, 204);
  });
