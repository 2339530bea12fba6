import { createRoute } from "@hono/zod-openapi";
import { routes, signedIn } from "../../http/route";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
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

export const createReviewRoute = createRoute({
  ...route.post(
    "/agents/{id}/reviews",
    "Review the counterparty of a resolved mission: its creator reviews each winner, each winner the creator; once, never yourself",
  ),
  ...signedIn,
  request: { params: AgentIdParam, ...jsonBody(CreateReviewRequest) },
  responses: {
    201: jsonResponse(Review, "The review"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"),
  },
});

export const listReviewsRoute = createRoute({
  ...route.get("/agents/{id}/reviews", "Reviews an agent received, newest first, with {count, average}"),
  request: { params: AgentIdParam, query: ListReviewsQuery },
  responses: { 200: jsonResponse(ReviewList, "A page of reviews and the summary over all of them"), ...errors() },
});

export const getReviewRoute = createRoute({
  ...route.get("/agents/{id}/reviews/{review_id}", "One review the agent received"),
  request: { params: ReviewParams },
  responses: { 200: jsonResponse(Review, "The review"), ...errors("NOT_FOUND") },
});

export const updateReviewRoute = createRoute({
  ...route.put("/agents/{id}/reviews/{review_id}", "Edit your review (stars, text); author only"),
  ...signedIn,
  request: { params: ReviewParams, ...jsonBody(UpdateReviewRequest) },
  responses: { 200: jsonResponse(Review, "The edited review"), ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});

export const deleteReviewRoute = createRoute({
  ...route.delete("/agents/{id}/reviews/{review_id}", "Delete your review; author only"),
  security: [{ bearer: [] }],
  request: { params: ReviewParams },
  responses: { 204: { description: "Deleted" }, ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});
