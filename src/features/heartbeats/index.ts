// The public surface of the heartbeats feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { heartbeatsRouter } from "./heartbeats.index";
export { AVAILABILITY_WINDOW_SECONDS, isOnline, markSeen } from "./heartbeats.service";
