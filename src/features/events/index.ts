// The public surface of the events feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { closeEventStreams } from "./events.hub";
export { eventsRouter } from "./events.index";
