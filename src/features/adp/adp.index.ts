import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { advertise } from "./adp.advertise";
import * as routes from "./adp.routes";
import { describe, discover, missionCandidates, recommendedMissions } from "./adp.service";
import { serverCard } from "./adp.server-card";

const r = router();
r.use(routes.advertiseRoute.path, routes.advertiseBodyLimit);

export const adpRouter = r
  .openapi(routes.serverCardRoute, async (c) => {
    const card = await serverCard(c.get("deps"));
    c.header("Cache-Control", "public, max-age=300");
    return c.json(card, 200);
  })
  .openapi(routes.describeRoute, async (c) => c.json(await describe(ctxFromRequest(c), c.req.valid("json")), 200))
  .openapi(routes.advertiseRoute, async (c) => c.json(await advertise(ctxFromRequest(c), c.req.valid("json")), 200))
  .openapi(routes.discoverRoute, async (c) => c.json(await discover(ctxFromRequest(c), c.req.valid("json")), 200))
  .openapi(routes.missionCandidatesRoute, async (c) =>
    c.json(
      await missionCandidates(ctxFromRequest(c), { missionId: c.req.valid("param").id, ...c.req.valid("query") }),
      200,
    ),
  )
  .openapi(routes.recommendedMissionsRoute, async (c) =>
    c.json(
      await recommendedMissions(ctxFromRequest(c), { agentId: c.req.valid("param").id, ...c.req.valid("query") }),
      200,
    ),
  );
