import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { handle, operation } from "../../http/operation";
import { amendMissionOnce, amendMissionRoute, listAmendmentsRoute } from "./amendments.routes";
import { amendMission, listAmendments } from "./amendments.service";

// The operation REST and MCP share (src/http/operation.ts).
export const amendMissionOp = operation({
  route: amendMissionRoute,
  caller: "agent",
  input: ({ param, json }) => ({ missionId: param.id, input: json }),
  verb: amendMission,
  once: (caller, i) => amendMissionOnce(caller, i.missionId),
  lists: true,
});

export const amendmentsRouter = router()
  .openapi(amendMissionRoute, handle(amendMissionOp))
  .openapi(listAmendmentsRoute, async (c) =>
    c.json(
      await listAmendments(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("query") }),
      200,
    ),
  );
