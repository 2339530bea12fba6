// The public surface of the qa feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { answerQuestionOp, askQuestionOp, listQuestionsOp, qaRouter } from "./qa.index";
export { AnswerQuestionRequest, AskQuestionRequest, ListQuestionsQuery, Question, QuestionList } from "./qa.schemas";
export type { QuestionWire } from "./qa.schemas";
export { listQuestions } from "./qa.service";
