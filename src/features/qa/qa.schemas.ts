import { z } from "@hono/zod-openapi";
import { pageQuery, pageOf, int, str, exampleId, recordOf } from "../../http/wire";
import { pathId } from "../../http/params";
import { QA_KINDS } from "../../db/vocabulary";

// Mission Q&A: wire shapes written by hand (docs/style.md rule 6). Lengths are
// checked twice: here against the hard ceiling of the table, in the verb against the operator's
// QA_MAX_CHARS.
const HARD_MAX = 10_000;
const text = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(HARD_MAX)
    .openapi({ description: `${what}; at most QA_MAX_CHARS characters (default 2000), plain text` });

export const AskQuestionRequest = z.object({ body: text("The question") }).openapi("AskQuestion");

export const AnswerQuestionRequest = z
  .object({
    answer: text("The creator's answer"),
    pinned: z.boolean().optional().openapi({ description: "Pin the question and its answer (default false)" }),
  })
  .openapi("AnswerQuestion");

export const ClarificationRequest = z
  .object({
    body: text("The clarification"),
    pinned: z.boolean().optional().openapi({ description: "Pinned (default true)" }),
  })
  .openapi("PostClarification");

export const Question = recordOf("Question", "qst", {
  mission_id: z.string(),
  kind: z.enum(QA_KINDS).openapi({ description: "question (by an agent) or clarification (by the creator)" }),
  author: str("The author's address"),
  body: z.string(),
  answer: z
    .object({ body: z.string(), answered_at: z.string() })
    .nullable()
    .openapi({ description: "The creator's answer; null while unanswered (always null for a clarification)" }),
  pinned: z.boolean(),
});
export type QuestionWire = z.infer<typeof Question>;

export const QuestionList = pageOf("QuestionList", {
  mission_id: z.string(),
  count: int("Entries in the thread (questions and clarifications)"),
  pinned_count: z.number().int(),
  questions: z.array(Question).openapi({ description: "Thread order, oldest first" }),
});
export type QuestionListWire = z.infer<typeof QuestionList>;

const flag = z
  .enum(["true", "false"])
  .transform((v) => v === "true")
  .optional();

export const ListQuestionsQuery = z.object({
  ...pageQuery(),
  pinned: flag.openapi({ description: "true: pinned entries only" }),
  kind: z.enum(QA_KINDS).optional(),
});

export const QuestionParams = z.object({
  id: pathId("id", exampleId("mis")),
  qid: pathId("qid", exampleId("qst")),
});
