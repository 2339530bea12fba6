// The public surface of the wellknown feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { AGENT_PROTOCOL_PATH, SERVER_NAME } from "./wellknown.documents";
export { registerWellKnown } from "./wellknown.index";
export { registerDiscoveryDocs } from "./wellknown.openapi";
