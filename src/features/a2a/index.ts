// The public surface of the a2a feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { pushRequest } from "./a2a.push";
export { registerA2aDocs } from "./a2a.routes";
export { a2aEdgeError, registerA2a } from "./a2a.rpc";
