import { bearer, routes } from "../../http/route";
import { Heartbeat } from "./heartbeats.schemas";
import { AgentIdParam } from "../../http/params";

const route = routes("agents");

export const heartbeatRoute = route.post(
  "/agents/{id}/heartbeat",
  "Agent Mesh heartbeat: the agent itself marks itself seen (send every 30–60 s; online for 180 s)",
  {
    ...bearer,
    in: { params: AgentIdParam },
    ok: [200, Heartbeat, "Recorded"],
    errors: [
      ["INVALID_PARAMETER", "agent_id_required", "agent_not_registered"],
      ["UNAUTHORIZED", "unknown_api_key"],
      ["FORBIDDEN", "not_self"],
    ],
  },
);
