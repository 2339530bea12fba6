// The public surface of the mcp feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { MCP_OWN_PATHS, registerMcp } from "./mcp.index";
export { mcpJobs } from "./mcp.jobs";
export { registerMcpDocs } from "./mcp.routes";
export { TOOLS } from "./mcp.tools";
