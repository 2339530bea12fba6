import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { agentCtx } from "../../http/handler";
import { answerQuestionRoute, askQuestionRoute, clarificationRoute, listQuestionsRoute } from "./qa.routes";
import { answerQuestion, askQuestion, listQuestions, postClarification } from "./qa.service";

export const qaRouter = router()
  .openapi(listQuestionsRoute, async (c) =>
    c.json(
      await listQuestions(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("query") }),
      200,
    ),
  )
  .openapi(askQuestionRoute, async (c) => {
    const q = await askQuestion(agentCtx(c), {
      missionId: c.req.valid("param").id,
      body: c.req.valid("json").body,
    });
    return c.json(q, 201);
  })
  .openapi(answerQuestionRoute, async (c) => {
    const p = c.req.valid("param");
    const b = c.req.valid("json");
    return c.json(
      await answerQuestion(agentCtx(c), {
        missionId: p.id,
        questionId: p.qid,
        answer: b.answer,
        pinned: b.pinned,
      }),
      200,
    );
  })
  .openapi(clarificationRoute, async (c) => {
    const b = c.req.valid("json");
    const q = await postClarification(agentCtx(c), {
      missionId: c.req.valid("param").id,
      body: b.body,
      pinned: b.pinned,
    });
    return c.json(q, 201);
  });
