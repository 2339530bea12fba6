import { router } from "../../http/openapi";
import { sendJsonDoc } from "../../http/http-cache";
import { sendStored } from "../../http/respond";
import { checkIdempotencyKey } from "../../lib/idempotency";
import { AppError } from "../../lib/errors";
import { createMissionRoute, customTypeRoute, getMissionRoute, listMissionsRoute, missionTypesRoute, voidMissionRoute } from "./missions.routes";
import { customTypeDocument, supportedTypes, typesDocument } from "./missions.types";
import { createMission, getMission, listMissionsDoc, voidMission } from "./missions.service";
import { requireAgent } from "../../http/identity";

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
  .openapi(missionTypesRoute, (c) => {
    // AIP-2 §2: "cache for 24h" on the agent's side; the registry changes only with a release.
    c.header("Cache-Control", "public, max-age=3600");
    return c.json(typesDocument(), 200);
  })
  .openapi(customTypeRoute, (c) => {
    const id = c.req.valid("param").type_id;
    const doc = customTypeDocument(id);
    if (!doc) throw new AppError("NOT_FOUND", `no custom mission type ${id}`, { supported_types: supportedTypes() });
    return c.json(doc, 200);
  })
  .openapi(getMissionRoute, async (c) => {
    const id = c.get("identity");
    return c.json(await getMission(c.get("deps"), c.req.valid("param").id, id.kind === "agent" ? id.address : undefined), 200);
  })
  .openapi(voidMissionRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    return c.json(await voidMission(c.get("deps"), caller, c.req.valid("param").id), 200);
  });
