// The public surface of the agents feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { agentBalanceOp, agentsRouter, getAgentOp } from "./agents.index";
export { Agent, AgentBalance } from "./agents.schemas";
export { displayNamesOf, getAgent, getAgentHistory } from "./agents.service";
