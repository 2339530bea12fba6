import type { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/types";
import { PRIVATE_READ_CACHE, preSerialized, sendJsonDoc, sendJsonValue } from "../../http/http-cache";
import { router } from "../../http/openapi";
import { ctxFromRequest } from "../../http/context";
import { handle, operation } from "../../http/operation";
import { AppError } from "../../lib/errors";
import * as routes from "./missions.routes";
import type { MissionList } from "./missions.schemas";
import { customTypeDocument, supportedTypes, typeParamsSchemaDocument, typesDocument } from "./missions.types";
import { createMission } from "./missions.create";
import { listMissionsDoc } from "./missions.list";
import { getMission, missionDocById } from "./missions.read";
import { voidMission } from "./missions.void";

// The operations REST and MCP share (src/http/operation.ts): each call to a verb written once.

export const createMissionOp = operation({
  route: routes.createMissionRoute,
  caller: "agent",
  input: ({ json }) => json,
  verb: createMission,
  once: (creator) => routes.createMissionOnce(creator),
  lists: true,
});

export const listMissionsOp = operation({
  route: routes.listMissionsRoute,
  input: ({ query }) => query,
  verb: listMissionsDoc,
});

export const getMissionOp = operation({
  route: routes.getMissionRoute,
  input: ({ param }) => ({ id: param.id }),
  verb: getMission,
});

export const voidMissionOp = operation({
  route: routes.voidMissionRoute,
  caller: "agent",
  input: ({ param }) => ({ id: param.id }),
  verb: voidMission,
  lists: true,
});

/** The anonymous reader's assembled answer when this instance has it (missions.read.ts `missionDocById`). */
async function cachedMission(c: Context<AppEnv>): Promise<Response | undefined> {
  const doc = await missionDocById(ctxFromRequest(c), c.req.param("id") ?? "");
  return doc && sendJsonDoc(c, doc);
}

/**
 * GET /missions/{id} ahead of the route's validators (docs/decisions/storage.md "The anonymous mission
 * read is answered ahead of the route"): a GET with no query string has nothing the strict-query check or the parameter schema
 * could refuse once `missionDocById` accepts the id, so the cached answer goes out from here with
 * every header the middleware chain set; anything else (a query, an unknown id, a signed-in
 * reader, a miss) goes on to the route.
 */
const missionAhead: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "GET" || c.req.url.includes("?")) return next();
  return (await cachedMission(c)) ?? next();
};

const base = router();
base.use("/missions/:id", missionAhead);

export const missionsRouter = base
  .openapi(routes.createMissionRoute, handle(createMissionOp))
  .openapi(
    routes.listMissionsRoute,
    handle(listMissionsOp, {
      send: (c, doc) => {
        // A signed-in reader's page carries its own viewer_blocked (missions.viewer.ts): never shared.
        if (c.get("identity").kind === "agent") c.header("Cache-Control", PRIVATE_READ_CACHE);
        return preSerialized<z.output<typeof MissionList>>(sendJsonDoc(c, doc));
      },
    }),
  )
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
  .openapi(
    routes.getMissionRoute,
    handle(getMissionOp, {
      // The cached document when this instance has it; the verb otherwise.
      before: cachedMission,
      send: (c, m) => sendJsonValue(c, m),
    }),
  )
  .openapi(routes.voidMissionRoute, handle(voidMissionOp));
