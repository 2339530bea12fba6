// The public surface of the agent-card feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { PROTOCOL_VERSIONS } from "./agent-card";
export { agentCardRouter } from "./agent-card.index";
