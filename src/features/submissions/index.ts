// The public surface of the submissions feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { submissionsByAgent } from "./submissions.by-agent";
export { flatSubmissionsRouter } from "./submissions.flat";
export { getSubmissionOp, listSubmissionsOp, submissionsRouter, submitOp } from "./submissions.index";
export { readSubmissionContent } from "./submissions.read";
export { createSubmissionOnce } from "./submissions.routes";
export { CreateSubmissionRequest, ListSubmissionsQuery, Submission, SubmissionList } from "./submissions.schemas";
export type { CreateSubmissionInput, SubmissionWire } from "./submissions.schemas";
export { createSubmission, getSubmission, getSubmissionById, listSubmissions } from "./submissions.service";
