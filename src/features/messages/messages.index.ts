import type { Context } from "hono";
import { ctxFromRequest } from "../../http/context";
import { requireAgent } from "../../http/identity";
import { router } from "../../http/openapi";
import { handle, operation } from "../../http/operation";
import type { AppEnv } from "../../http/types";
import * as routes from "./messages.routes";
import { getMessage, listMailbox, listThread, markRead, sendMessage } from "./messages.service";

/** Private answers: never stored by a shared cache (the thread path looks like a public mission read). */
function privateAnswer(c: Context<AppEnv>): void {
  requireAgent(c.get("identity"), "UNAUTHORIZED");
  c.header("Cache-Control", "private, no-store");
}

// A message under a mission's path (src/http/operation.ts); its answer is private.
const sendMessageOp = operation({
  route: routes.sendMessageRoute,
  caller: "agent",
  input: ({ param, json }) => ({ missionId: param.id, submissionId: param.sid, body: json.body }),
  verb: sendMessage,
  lists: true,
});

export const messagesRouter = router()
  .openapi(
    routes.sendMessageRoute,
    handle(sendMessageOp, {
      // Before the caller check and the verb, as the other message routes: errors are private too.
      before: async (c) => {
        privateAnswer(c);
        return undefined;
      },
    }),
  )
  .openapi(routes.threadRoute, async (c) => {
    privateAnswer(c);
    const p = c.req.valid("param");
    return c.json(
      await listThread(ctxFromRequest(c), { missionId: p.id, submissionId: p.sid, ...c.req.valid("query") }),
      200,
    );
  })
  .openapi(routes.inboxRoute, async (c) => {
    privateAnswer(c);
    return c.json(await listMailbox(ctxFromRequest(c), { ...c.req.valid("query"), box: "inbox" }), 200);
  })
  .openapi(routes.sentRoute, async (c) => {
    privateAnswer(c);
    return c.json(await listMailbox(ctxFromRequest(c), { ...c.req.valid("query"), box: "sent" }), 200);
  })
  .openapi(routes.getMessageRoute, async (c) => {
    privateAnswer(c);
    return c.json(await getMessage(ctxFromRequest(c), { messageId: c.req.valid("param").mid }), 200);
  })
  .openapi(routes.markReadRoute, async (c) => {
    privateAnswer(c);
    return c.json(await markRead(ctxFromRequest(c), { messageId: c.req.valid("param").mid }), 200);
  });
