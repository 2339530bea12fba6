import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { sendMissionWriteOnce } from "../../http/handler";
import { amendMissionOnce, amendMissionRoute, listAmendmentsRoute } from "./amendments.routes";
import { amendMission, listAmendments } from "./amendments.service";

export const amendmentsRouter = router()
  .openapi(amendMissionRoute, (c) =>
    sendMissionWriteOnce(c, "UNAUTHORIZED", amendMissionOnce, (ctx, missionId, input) =>
      amendMission(ctx, { missionId, input }),
    ),
  )
  .openapi(listAmendmentsRoute, async (c) =>
    c.json(
      await listAmendments(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("query") }),
      200,
    ),
  );
