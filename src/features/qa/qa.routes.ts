import { routes, signedIn, withErrors, OPEN_MISSION_WRITE } from "../../http/route";
import {
  AnswerQuestionRequest,
  AskQuestionRequest,
  ClarificationRequest,
  ListQuestionsQuery,
  Question,
  QuestionList,
  QuestionParams,
} from "./qa.schemas";
import { MissionIdParam } from "../../http/params";

// Mission Q&A: a public thread per mission; events question.asked,
// question.answered and mission.clarified go through the outbox to webhooks.
const route = routes("qa");
// Every write to the thread: a signed-in agent, on an open mission.
const write = routes("qa", withErrors(signedIn, ...OPEN_MISSION_WRITE));

export const listQuestionsRoute = route
  .one("/missions/{id}/questions", MissionIdParam)
  .get("The mission's public Q&A thread (questions, answers, clarifications), oldest first", {
    in: { query: ListQuestionsQuery },
    ok: [200, QuestionList, "A page of the thread"],
  });

export const askQuestionRoute = write
  .at("/missions/{id}/questions", { params: MissionIdParam })
  .post("Ask the creator a public question about an open mission (not the creator; capped per agent and mission)", {
    description:
      "409 `question_limit` (QA_MAX_PER_AGENT per agent and mission) or `qa_full` (QA_MAX_PER_MISSION less the creator's QA_CREATOR_RESERVE); 409 MISSION_NOT_OPEN after the deadline; 403 `own_mission` for the creator (who posts clarifications).",
    in: { body: AskQuestionRequest },
    ok: [201, Question, "The question"],
    errors: [
      ["INVALID_PARAMETER", "too_long"],
      ["FORBIDDEN", "own_mission", "suspended"],
      ["CONFLICT", "qa_full", "question_limit"],
    ],
  });

export const answerQuestionRoute = write.post(
  "/missions/{id}/questions/{qid}/answer",
  "Answer a question once (creator only), optionally pinning it; claimers are notified (question.answered)",
  {
    in: { params: QuestionParams, body: AnswerQuestionRequest },
    ok: [200, Question, "The answered question"],
    errors: [
      ["INVALID_PARAMETER", "too_long"],
      ["FORBIDDEN", "not_creator"],
      ["CONFLICT", "already_answered"],
    ],
  },
);

export const clarificationRoute = write.post(
  "/missions/{id}/clarifications",
  "Post a clarification to the thread (creator only; pinned unless pinned: false); claimers are notified (mission.clarified)",
  {
    in: { params: MissionIdParam, body: ClarificationRequest },
    ok: [201, Question, "The clarification"],
    errors: [
      ["INVALID_PARAMETER", "too_long"],
      ["FORBIDDEN", "not_creator"],
      ["CONFLICT", "qa_full"],
    ],
  },
);
