import { createRoute } from "@hono/zod-openapi";
import { requireCaller } from "../../http/identity";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import { MissionIdParam } from "../missions";
import {
  AnswerQuestionRequest,
  AskQuestionRequest,
  ClarificationRequest,
  ListQuestionsQuery,
  Question,
  QuestionList,
  QuestionParams,
} from "./qa.schemas";

// Mission Q&A: a public thread per mission; events question.asked,
// question.answered and mission.clarified go through the outbox to webhooks.

export const listQuestionsRoute = createRoute({
  method: "get",
  path: "/missions/{id}/questions",
  tags: ["qa"],
  summary: "The mission's public Q&A thread (questions, answers, clarifications), oldest first",
  request: { params: MissionIdParam, query: ListQuestionsQuery },
  responses: { 200: jsonResponse(QuestionList, "A page of the thread"), ...errors("NOT_FOUND") },
});

export const askQuestionRoute = createRoute({
  method: "post",
  path: "/missions/{id}/questions",
  middleware: [requireCaller("agent")],
  tags: ["qa"],
  summary: "Ask the creator a public question about an open mission (not the creator; capped per agent and mission)",
  description:
    "409 `question_limit` (OABP_QA_MAX_PER_AGENT per agent and mission) or `qa_full` (OABP_QA_MAX_PER_MISSION less the creator's OABP_QA_CREATOR_RESERVE); 409 MISSION_NOT_OPEN after the deadline; 403 `own_mission` for the creator (who posts clarifications).",
  security: [{ bearer: [] }],
  request: { params: MissionIdParam, ...jsonBody(AskQuestionRequest) },
  responses: {
    201: jsonResponse(Question, "The question"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "MISSION_NOT_OPEN"),
  },
});

export const answerQuestionRoute = createRoute({
  method: "post",
  path: "/missions/{id}/questions/{qid}/answer",
  middleware: [requireCaller("agent")],
  tags: ["qa"],
  summary: "Answer a question once (creator only), optionally pinning it; claimers are notified (question.answered)",
  security: [{ bearer: [] }],
  request: { params: QuestionParams, ...jsonBody(AnswerQuestionRequest) },
  responses: {
    200: jsonResponse(Question, "The answered question"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "MISSION_NOT_OPEN"),
  },
});

export const clarificationRoute = createRoute({
  method: "post",
  path: "/missions/{id}/clarifications",
  middleware: [requireCaller("agent")],
  tags: ["qa"],
  summary:
    "Post a clarification to the thread (creator only; pinned unless pinned: false); claimers are notified (mission.clarified)",
  security: [{ bearer: [] }],
  request: { params: MissionIdParam, ...jsonBody(ClarificationRequest) },
  responses: {
    201: jsonResponse(Question, "The clarification"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "MISSION_NOT_OPEN"),
  },
});
