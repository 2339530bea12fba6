import { router } from "../../http/openapi";
import { handle, operation } from "../../http/operation";
import { answerQuestionRoute, askQuestionRoute, clarificationRoute, listQuestionsRoute } from "./qa.routes";
import { answerQuestion, askQuestion, listQuestions, postClarification } from "./qa.service";

// The operations REST and MCP share (src/http/operation.ts).
export const listQuestionsOp = operation({
  route: listQuestionsRoute,
  input: ({ param, query }) => ({ missionId: param.id, ...query }),
  verb: listQuestions,
});

export const askQuestionOp = operation({
  route: askQuestionRoute,
  caller: "agent",
  input: ({ param, json }) => ({ missionId: param.id, body: json.body }),
  verb: askQuestion,
  lists: true,
});

export const answerQuestionOp = operation({
  route: answerQuestionRoute,
  caller: "agent",
  input: ({ param, json }) => ({
    missionId: param.id,
    questionId: param.qid,
    answer: json.answer,
    pinned: json.pinned,
  }),
  verb: answerQuestion,
  lists: true,
});

const clarificationOp = operation({
  route: clarificationRoute,
  caller: "agent",
  input: ({ param, json }) => ({ missionId: param.id, body: json.body, pinned: json.pinned }),
  verb: postClarification,
  lists: true,
});

export const qaRouter = router()
  .openapi(listQuestionsRoute, handle(listQuestionsOp))
  .openapi(askQuestionRoute, handle(askQuestionOp))
  .openapi(answerQuestionRoute, handle(answerQuestionOp))
  .openapi(clarificationRoute, handle(clarificationOp));
