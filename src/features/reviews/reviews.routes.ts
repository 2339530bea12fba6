import { bearer, routes, signedIn } from "../../http/route";
import {
  CreateReviewRequest,
  ListReviewsQuery,
  Review,
  ReviewList,
  ReviewParams,
  UpdateReviewRequest,
} from "./reviews.schemas";
import { AgentIdParam } from "../../http/params";

// ClawFinder reviews; {id} is always the reviewed agent (docs/design.md "ClawFinder").
const route = routes("reviews");

export const createReviewRoute = route.post(
  "/agents/{id}/reviews",
  "Review the counterparty of a resolved mission: its creator reviews each winner, each winner the creator; once, never yourself",
  {
    ...signedIn,
    in: { params: AgentIdParam, body: CreateReviewRequest },
    ok: [201, Review, "The review"],
    errors: ["NOT_FOUND", "CONFLICT"],
  },
);

export const listReviewsRoute = route.get(
  "/agents/{id}/reviews",
  "Reviews an agent received, newest first, with {count, average}",
  {
    in: { params: AgentIdParam, query: ListReviewsQuery },
    ok: [200, ReviewList, "A page of reviews and the summary over all of them"],
  },
);

export const getReviewRoute = route.get("/agents/{id}/reviews/{review_id}", "One review the agent received", {
  in: { params: ReviewParams },
  ok: [200, Review, "The review"],
  errors: ["NOT_FOUND"],
});

export const updateReviewRoute = route.put(
  "/agents/{id}/reviews/{review_id}",
  "Edit your review (stars, text); author only",
  {
    ...signedIn,
    in: { params: ReviewParams, body: UpdateReviewRequest },
    ok: [200, Review, "The edited review"],
    errors: ["NOT_FOUND"],
  },
);

export const deleteReviewRoute = route.delete("/agents/{id}/reviews/{review_id}", "Delete your review; author only", {
  ...bearer,
  in: { params: ReviewParams },
  responses: { 204: { description: "Deleted" } },
  errors: ["NOT_FOUND"],
});
