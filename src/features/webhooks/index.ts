// The public surface of the webhooks feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { attemptDelivery, claimDueDeliveries, fanOutEvents, recordAttempt } from "./webhooks.delivery";
export type { AttemptOutcome, ClaimedDelivery } from "./webhooks.delivery";
export { webhooksRouter } from "./webhooks.index";
export { checkWebhookUrl } from "./webhooks.url";
export { runVerifications } from "./webhooks.verify";
