import type { z } from "@hono/zod-openapi";
import { PRIVATE_READ_CACHE, preSerialized, sendJsonDoc, sendJsonValue } from "../../http/http-cache";
import { router } from "../../http/openapi";
import { agentCtx, sendOnce } from "../../http/handler";
import { ctxFromRequest } from "../../http/context";
import { AppError } from "../../lib/errors";
import * as routes from "./missions.routes";
import type { MissionList } from "./missions.schemas";
import { customTypeDocument, supportedTypes, typeParamsSchemaDocument, typesDocument } from "./missions.types";
import { createMission, getMission, listMissionsDoc, missionDocById, voidMission } from "./missions.service";
import { requireAgent } from "../../http/identity";

export const missionsRouter = router()
  .openapi(routes.createMissionRoute, async (c) => {
    const creator = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const input = c.req.valid("json");
    return sendOnce(c, { request: input, ...routes.createMissionOnce(creator) }, (ctx) => createMission(ctx, input));
  })
  .openapi(routes.listMissionsRoute, async (c) => {
    // A signed-in reader's page carries its own viewer_blocked (missions.viewer.ts): never shared.
    if (c.get("identity").kind === "agent") c.header("Cache-Control", PRIVATE_READ_CACHE);
    return preSerialized<z.output<typeof MissionList>>(
      sendJsonDoc(c, await listMissionsDoc(ctxFromRequest(c), c.req.valid("query"))),
    );
  })
  .openapi(routes.missionTypesRoute, (c) => {
    // AIP-2 §2: "cache for 24h" on the agent's side; the registry changes only with a release.
    c.header("Cache-Control", "public, max-age=3600");
    return c.json(typesDocument(), 200);
  })
  .openapi(routes.typeSchemaRoute, (c) => {
    const id = c.req.valid("param").type_id;
    const doc = typeParamsSchemaDocument(id);
    if (!doc) throw new AppError("NOT_FOUND", `no mission type ${id}`, { supported_types: supportedTypes() });
    c.header("Cache-Control", "public, max-age=3600");
    return c.json(doc, 200);
  })
  .openapi(routes.customTypeRoute, (c) => {
    const id = c.req.valid("param").type_id;
    const doc = customTypeDocument(id);
    if (!doc) throw new AppError("NOT_FOUND", `no custom mission type ${id}`, { supported_types: supportedTypes() });
    return c.json(doc, 200);
  })
  .openapi(routes.getMissionRoute, async (c) => {
    const ctx = ctxFromRequest(c);
    const id = c.req.valid("param").id;
    const doc = await missionDocById(ctx, id);
    if (doc) return sendJsonDoc(c, doc) as never;
    const m = await getMission(ctx, { id });
    return sendJsonValue(c, m);
  })
  .openapi(routes.voidMissionRoute, async (c) =>
    c.json(await voidMission(agentCtx(c), { id: c.req.valid("param").id }), 200),
  );
