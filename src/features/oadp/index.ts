// The public surface of the oadp feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { markOadpSignalled, oadpHtmlSignal, oadpMetaTags, wantsHtml } from "./oadp.html";
export { oadpRouter } from "./oadp.index";
export { oadpJobs } from "./oadp.jobs";
