// The moves scripts/fix-imports.mjs applies: whole modules that moved below the features, and
// names that moved out of a feature file. Add a line here when a module or a name moves.

// Whole files moved below the features (old path → new path, both without extension).
export const MODULE_MOVES = {
  "src/features/agents/agents.touch": "src/db/touch-agent",
  "src/features/webhooks/webhooks.outbox": "src/db/outbox",
  "src/features/webhooks/webhooks.events": "src/lib/webhook-events",
  "src/features/receipts/receipts.keys": "src/lib/receipt-keys",
  "src/features/receipts/receipts.canonical": "src/lib/canonical-json",
  "src/features/receipts/receipts.sign": "src/lib/receipt-sign",
  "src/features/receipts/receipts.paths": "src/lib/receipt-path",
  "src/features/web/web.paths": "src/lib/view-paths",
  "src/features/verification/reasons": "src/lib/reasons",
  "src/features/verification/settlement": "src/features/settlement/settlement",
  "src/features/mcp/mcp.contract": "src/lib/mcp-contract",
};

// Names moved out of a feature file (the file stays). `from` lists the modules the name used to
// come from; an import of the old feature's index.ts counts too. `ifExists`: only once the new
// module exists and declares the name (a change that lands later creates it).
export const SYMBOL_MOVES = [
  { names: ["parseAgentId"], from: ["src/features/agents/agents.service"], to: "src/lib/agent-id" },
  { names: ["AgentIdParam"], from: ["src/features/agents/agents.schemas"], to: "src/http/params" },
  { names: ["MissionRow"], from: ["src/features/missions/missions.wire"], to: "src/db/rows" },
  { names: ["MISSION_COLUMNS"], from: ["src/features/missions/missions.queries"], to: "src/db/rows" },
  { names: ["findMission"], from: ["src/features/missions/missions.service"], to: "src/db/rows" },
  { names: ["requireAgent", "requireAdmin"], from: ["src/features/auth/auth.service"], to: "src/http/identity" },
  {
    names: ["VERIFICATION_TYPES", "PUBLIC_STATUSES", "MISSION_STATUSES", "PAYOUT_STATUSES"],
    from: ["src/features/missions/missions.schemas"],
    to: "src/db/vocabulary",
    ifExists: true,
  },
  { names: ["findAsset"], from: ["src/features/missions/missions.service"], to: "src/lib/money" },
  { names: ["ELIGIBILITY_LIST_MAX"], from: ["src/features/missions/missions.service"], to: "src/db/schema/missions" },
  { names: ["Uint"], from: ["src/features/missions/missions.schemas"], to: "src/http/wire" },
  { names: ["MissionIdParam"], from: ["src/features/missions/missions.schemas"], to: "src/http/params" },
  { names: ["OPEN_MISSION_WRITE"], from: ["src/features/missions/missions.routes"], to: "src/http/route" },
];
