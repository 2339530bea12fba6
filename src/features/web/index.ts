// The public surface of the web feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { clientBundle } from "./web.assets";
export { registerWeb } from "./web.index";
