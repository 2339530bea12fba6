import { router } from "../../http/openapi";
import { sendJsonDoc } from "../../http/http-cache";
import { sendStored } from "../../http/respond";
import { checkIdempotencyKey } from "../../lib/idempotency";
import { requireAgent } from "../auth/auth.service";
import { createMissionRoute, getMissionRoute, listMissionsRoute, voidMissionRoute } from "./missions.routes";
import { createMission, getMission, listMissionsDoc, voidMission } from "./missions.service";

export const missionsRouter = router()
  .openapi(createMissionRoute, async (c) => {
    const creator = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const key = checkIdempotencyKey(c.req.header("idempotency-key"));
    const r = await createMission(c.get("deps"), creator, c.req.valid("json"), key);
    return sendStored(c, r);
  })
  .openapi(listMissionsRoute, async (c) => {
    return sendJsonDoc(c, await listMissionsDoc(c.get("deps"), c.req.valid("query"))) as never;
  })
  .openapi(getMissionRoute, async (c) => {
    const id = c.get("identity");
    return c.json(await getMission(c.get("deps"), c.req.valid("param").id, id.kind === "agent" ? id.address : undefined), 200);
  })
  .openapi(voidMissionRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await voidMission(c.get("deps"), caller, c.req.valid("param").id), 200);
  });
