// The public surface of the reviews feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { reviewsRouter } from "./reviews.index";
export { listReviews, reviewSummary } from "./reviews.service";
