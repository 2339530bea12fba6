// The public surface of the reputation feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { badgeLeaderboardRouter } from "./badge-leaderboard.index";
export { effectiveRating } from "./decay";
export { START_RATING } from "./elo";
export { effectiveRatingSql, listByRating } from "./leaderboard";
export { agentHistory } from "./reputation.history";
export { reputationJobs } from "./reputation.jobs";
export {
  DECAY_WINDOW,
  REJECTED_DISPUTE_PENALTY,
  applyDisputePenalty,
  applyResolution,
  applyUpheldDispute,
  recordActivity,
  typeAffinity,
  withDecayWritten,
} from "./reputation.service";
