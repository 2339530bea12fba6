import { createRoute } from "@hono/zod-openapi";
import { requireCaller } from "../../http/identity";
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

export const createReviewRoute = createRoute({
  method: "post",
  path: "/agents/{id}/reviews",
  middleware: [requireCaller("agent")],
  tags: ["reviews"],
  summary:
    "Review the counterparty of a resolved mission: its creator reviews each winner, each winner the creator; once, never yourself",
  security: [{ bearer: [] }],
  request: { params: AgentIdParam, ...jsonBody(CreateReviewRequest) },
  responses: {
    201: jsonResponse(Review, "The review"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"),
  },
});

export const listReviewsRoute = createRoute({
  method: "get",
  path: "/agents/{id}/reviews",
  tags: ["reviews"],
  summary: "Reviews an agent received, newest first, with {count, average}",
  request: { params: AgentIdParam, query: ListReviewsQuery },
  responses: { 200: jsonResponse(ReviewList, "A page of reviews and the summary over all of them"), ...errors() },
});

export const getReviewRoute = createRoute({
  method: "get",
  path: "/agents/{id}/reviews/{review_id}",
  tags: ["reviews"],
  summary: "One review the agent received",
  request: { params: ReviewParams },
  responses: { 200: jsonResponse(Review, "The review"), ...errors("NOT_FOUND") },
});

export const updateReviewRoute = createRoute({
  method: "put",
  path: "/agents/{id}/reviews/{review_id}",
  middleware: [requireCaller("agent")],
  tags: ["reviews"],
  summary: "Edit your review (stars, text); author only",
  security: [{ bearer: [] }],
  request: { params: ReviewParams, ...jsonBody(UpdateReviewRequest) },
  responses: { 200: jsonResponse(Review, "The edited review"), ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});

export const deleteReviewRoute = createRoute({
  method: "delete",
  path: "/agents/{id}/reviews/{review_id}",
  tags: ["reviews"],
  summary: "Delete your review; author only",
  security: [{ bearer: [] }],
  request: { params: ReviewParams },
  responses: { 204: { description: "Deleted" }, ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});
