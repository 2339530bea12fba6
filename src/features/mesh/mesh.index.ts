import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { meshDialect } from "../../http/mesh-dialect";
import { enforceRateLimit } from "../../http/rate-limit";
import { handle, operation } from "../../http/operation";
import { invokeSkill } from "./mesh.invoke";
import * as routes from "./mesh.routes";
import { deleteSkill, getSkill, listSkills, registerAgent, registerSkill } from "./mesh.service";

// The operation REST and MCP share (src/http/operation.ts).
export const listSkillsOp = operation({
  route: routes.listSkillsRoute,
  input: ({ query }) => query,
  verb: listSkills,
});

export const meshRouter = router()
  .openapi(routes.registerAgentRoute, async (c) => {
    // An anonymous registration mints a credential: it also takes a token from the per-network
    // session bucket, as POST /auth/nonce does (docs/neighbours.md "Agent Mesh").
    const who = c.get("identity");
    if (who.kind === "anonymous" && who.reason !== "unbound_api_key") await enforceRateLimit(c, "session");
    const out = await registerAgent(ctxFromRequest(c), c.req.valid("json"));
    // An issued API key is shown once: never stored by any cache.
    c.header("Cache-Control", "no-store");
    return c.json(out, 200);
  })
  .openapi(routes.registerSkillRoute, async (c) =>
    c.json(await registerSkill(ctxFromRequest(c), c.req.valid("json")), 200),
  )
  .openapi(
    routes.listSkillsRoute,
    handle(listSkillsOp, {
      send: (c, out) => {
        if (!meshDialect(c)) return c.json(out, 200);
        // The Mesh document's discovery answer: the array; the next page, if any, in a Link header.
        if (out.next_cursor !== null) {
          const next = new URL(c.req.url);
          next.searchParams.set("cursor", out.next_cursor);
          c.header("Link", `<${next.pathname}${next.search}>; rel="next"`);
        }
        return c.json(out.skills, 200);
      },
    }),
  )
  .openapi(routes.getSkillRoute, async (c) => c.json(await getSkill(ctxFromRequest(c), c.req.valid("param")), 200))
  .openapi(routes.deleteSkillRoute, async (c) =>
    c.json(await deleteSkill(ctxFromRequest(c), c.req.valid("param")), 200),
  )
  .openapi(routes.invokeSkillRoute, async (c) => {
    const body = c.req.valid("json");
    const { body: out, rate } = await invokeSkill(ctxFromRequest(c), {
      skillId: c.req.valid("param").id,
      from: body.from,
      payload: body.payload,
    });
    c.header("Cache-Control", "private, no-store");
    c.header("RateLimit-Policy", rate.policy);
    c.header("RateLimit", rate.state);
    return c.json(out, 200);
  });
