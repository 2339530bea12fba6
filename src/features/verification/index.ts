// The public surface of the verification feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { appealRefusal } from "./appeal";
export { commitmentMismatch, isCommitReveal, revealDeadline, revealedCommitment } from "./commit-reveal";
export { commitRevealRouter } from "./commit-reveal.index";
export { defaultAward } from "./default-award";
export { checkSubmission, judgeFirstValidMatch, needsNetwork } from "./first-valid-match";
export { advanceMission, prepareAdvance } from "./lifecycle";
export { applyAlternateReading, readAlternateOracle } from "./oracle";
export type { AlternateReading } from "./oracle";
export { awardOp, verificationRouter, voteOp } from "./verification.index";
export { AwardRequest, Vote, VoteRequest } from "./verification.routes";
