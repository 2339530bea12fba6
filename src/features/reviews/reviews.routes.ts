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

// ClawFinder reviews; {id} is always the reviewed agent (docs/design.md "Discovery (§7–§9) and neighbours").
const route = routes("reviews");
const reviews = route.at("/agents/{id}/reviews", { params: AgentIdParam });
const review = route.one("/agents/{id}/reviews/{review_id}", ReviewParams);

export const createReviewRoute = reviews.post(
  "Review the counterparty of a resolved mission: its creator reviews each winner, each winner the creator; once, never yourself",
  {
    ...signedIn,
    in: { body: CreateReviewRequest },
    ok: [201, Review, "The review"],
    errors: [
      "NOT_FOUND",
      ["CONFLICT", "already_reviewed", "mission_not_resolved"],
      ["FORBIDDEN", "not_a_party", "not_counterparty", "self_review"],
    ],
  },
);

export const listReviewsRoute = reviews.get("Reviews an agent received, newest first, with {count, average}", {
  in: { query: ListReviewsQuery },
  ok: [200, ReviewList, "A page of reviews and the summary over all of them"],
});

export const getReviewRoute = review.get("One review the agent received", { ok: [200, Review, "The review"] });

export const updateReviewRoute = review.put("Edit your review (stars, text); author only", {
  ...signedIn,
  in: { body: UpdateReviewRequest },
  ok: [200, Review, "The edited review"],
  errors: [["FORBIDDEN", "not_author"]],
});

export const deleteReviewRoute = review.delete("Delete your review; author only", {
  ...bearer,
  ok: [204, "Deleted"],
  errors: [["FORBIDDEN", "not_author"]],
});
