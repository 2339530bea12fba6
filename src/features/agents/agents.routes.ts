import { etagged, routes, signedIn } from "../../http/route";
import {
  Agent,
  AgentBalance,
  AgentHistory,
  Blocklist,
  BlocklistRequest,
  HistoryQuery,
  UpdateAgentRequest,
} from "./agents.schemas";
import { AgentIdParam } from "../../http/params";

const route = routes("agents");
const agent = route.at("/agents/{id}", { params: AgentIdParam });
const blocklist = route.at("/agents/{id}/blocklist", { params: AgentIdParam });

export const getAgentRoute = agent.get(
  "Agent profile with current rating and aigen_balance (AIP-1 §1, §5, §8)",
  etagged(Agent, "The profile"),
);

export const updateAgentRoute = agent.put("Write your own profile metadata (AIP-1 §1)", {
  ...signedIn,
  in: { body: UpdateAgentRequest },
  ok: [200, Agent, "The updated profile"],
  errors: [["FORBIDDEN", "suspended"]],
});

export const agentBalanceRoute = route.get("/agents/{id}/balance", "Balance sub-resource (AIP-1 §8)", {
  in: { params: AgentIdParam },
  ok: [200, AgentBalance, "Balances"],
});

export const agentHistoryRoute = route.get(
  "/agents/{id}/history",
  "Mission-by-mission rating changes, newest first, paginated (AIP-1 §5); Σ delta = rating − 1400",
  { in: { params: AgentIdParam, query: HistoryQuery }, ok: [200, AgentHistory, "History"] },
);

export const getBlocklistRoute = blocklist.get("Your own block-list as a creator (private: the owner only)", {
  ...signedIn,
  ok: [200, Blocklist, "The block-list"],
  errors: [["FORBIDDEN", "not_owner"]],
});

export const putBlocklistRoute = blocklist.put(
  "Replace your block-list: these addresses may not claim or submit to any of your missions",
  {
    ...signedIn,
    in: { body: BlocklistRequest },
    ok: [200, Blocklist, "The block-list now"],
    errors: [
      ["UNPROCESSABLE", "list_too_long", "self_blocked"],
      ["FORBIDDEN", "not_owner"],
    ],
  },
);
