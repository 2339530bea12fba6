import { z } from "@hono/zod-openapi";
import { pageQuery, pageOf, str, exampleId, recordOf } from "../../http/wire";
import { pathId } from "../../http/params";

// ClawFinder reviews (docs/design.md "Discovery (§7–§9) and neighbours"): integer stars 1–5, optional text.
const MAX_REVIEW_TEXT = 2000;

const stars = z.number().int().min(1).max(5).openapi({ description: "Integer 1–5", example: 5 });
const text = z
  .string()
  .max(MAX_REVIEW_TEXT)
  .nullable()
  .openapi({ description: `At most ${MAX_REVIEW_TEXT} characters; null or absent for none` });

export const CreateReviewRequest = z
  .object({
    mission_id: z.string().min(1).max(64).openapi({ example: "mis_01JZ0000000000000000000000" }),
    stars,
    text: text.optional(),
  })
  .openapi("CreateReview");
export type CreateReviewInput = z.infer<typeof CreateReviewRequest>;

export const UpdateReviewRequest = z
  .object({ stars: stars.optional(), text: text.optional() })
  .refine((b) => b.stars !== undefined || b.text !== undefined, "give stars, text or both")
  .openapi("UpdateReview");
export type UpdateReviewInput = z.infer<typeof UpdateReviewRequest>;

export const Review = recordOf("Review", "rev", {
  mission_id: z.string(),
  reviewer: str("The author's address"),
  reviewee: str("The reviewed agent's address (the {id} of the path)"),
  reviewer_role: z.enum(["creator", "winner"]).openapi({ description: "The author's side of the mission" }),
  stars: z.number().int(),
  text: z.string().nullable(),
});
export type ReviewWire = z.infer<typeof Review>;

const ReviewSummary = z
  .object({
    count: z.number().int(),
    average: z.number().nullable().openapi({ description: "Mean stars, rounded to 2 decimals; null without reviews" }),
  })
  .openapi("ReviewSummary");

export const ReviewList = pageOf("ReviewList", {
  agent_id: z.string(),
  summary: ReviewSummary,
  reviews: z.array(Review),
});

export const ListReviewsQuery = z.object({
  ...pageQuery(20),
});

export const ReviewParams = z.object({
  id: pathId("id", "0xabc1230000000000000000000000000000000000"),
  review_id: pathId("review_id", exampleId("rev")),
});
