import { routes, signedIn } from "../../http/route";
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
const route = routes("qa");

export const listQuestionsRoute = route.get(
  "/missions/{id}/questions",
  "The mission's public Q&A thread (questions, answers, clarifications), oldest first",
  {
    in: { params: MissionIdParam, query: ListQuestionsQuery },
    ok: [200, QuestionList, "A page of the thread"],
    errors: ["NOT_FOUND"],
  },
);

export const askQuestionRoute = route.post(
  "/missions/{id}/questions",
  "Ask the creator a public question about an open mission (not the creator; capped per agent and mission)",
  {
    ...signedIn,
    description:
      "409 `question_limit` (OABP_QA_MAX_PER_AGENT per agent and mission) or `qa_full` (OABP_QA_MAX_PER_MISSION less the creator's OABP_QA_CREATOR_RESERVE); 409 MISSION_NOT_OPEN after the deadline; 403 `own_mission` for the creator (who posts clarifications).",
    in: { params: MissionIdParam, body: AskQuestionRequest },
    ok: [201, Question, "The question"],
    errors: ["NOT_FOUND", "CONFLICT", "MISSION_NOT_OPEN"],
  },
);

export const answerQuestionRoute = route.post(
  "/missions/{id}/questions/{qid}/answer",
  "Answer a question once (creator only), optionally pinning it; claimers are notified (question.answered)",
  {
    ...signedIn,
    in: { params: QuestionParams, body: AnswerQuestionRequest },
    ok: [200, Question, "The answered question"],
    errors: ["NOT_FOUND", "CONFLICT", "MISSION_NOT_OPEN"],
  },
);

export const clarificationRoute = route.post(
  "/missions/{id}/clarifications",
  "Post a clarification to the thread (creator only; pinned unless pinned: false); claimers are notified (mission.clarified)",
  {
    ...signedIn,
    in: { params: MissionIdParam, body: ClarificationRequest },
    ok: [201, Question, "The clarification"],
    errors: ["NOT_FOUND", "CONFLICT", "MISSION_NOT_OPEN"],
  },
);
