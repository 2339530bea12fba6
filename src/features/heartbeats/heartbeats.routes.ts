import { createRoute } from "@hono/zod-openapi";
import { routes } from "../../http/route";
import { errors, jsonResponse } from "../../http/openapi";
import { Heartbeat } from "./heartbeats.schemas";
import { AgentIdParam } from "../../http/params";

const route = routes("agents");

export const heartbeatRoute = createRoute({
  ...route.post(
    "/agents/{id}/heartbeat",
    "Agent Mesh heartbeat: the agent itself marks itself seen (send every 30–60 s; online for 180 s)",
  ),
  security: [{ bearer: [] }],
  request: { params: AgentIdParam },
  responses: { 200: jsonResponse(Heartbeat, "Recorded"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});
