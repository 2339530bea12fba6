// The public surface of the messages feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { messagesRouter } from "./messages.index";
