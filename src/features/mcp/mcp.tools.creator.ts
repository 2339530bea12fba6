import { z } from "@hono/zod-openapi";
import { AgentBalance, agentBalanceOp } from "../agents";
import { Mission, voidMissionOp } from "../missions";
import { getSubmissionOp, ListSubmissionsQuery, listSubmissionsOp, Submission, SubmissionList } from "../submissions";
import { awardOp, AwardRequest } from "../verification";
import { Dispute, fileDisputeOp, FileDisputeRequest, getDisputeOp } from "../disputes";
import { AnswerQuestionRequest, answerQuestionOp, Question } from "../qa";
import { Withdrawal, WithdrawalRequest, withdrawOp } from "../withdrawals";
import { DESTRUCTIVE, IdempotencyKey, MissionId, opTool, READ, SubmissionRef, type Tool, WRITE } from "./mcp.tool";

// The rest of the loop over MCP (docs/mcp.md "Tools"): a creator reads its submissions, awards
// (with shares) or voids, answers questions; anyone reads balances and disputes and files one.
// Each is derived from the REST route's operation, with the REST route's schemas (mcp.tool.ts).

export const CREATOR_TOOLS: Tool[] = [
  opTool(listSubmissionsOp, {
    name: "list_submissions",
    description:
      "A mission's submissions in arrival order; the signed-in creator sees them all, others what GET /missions/{id}/submissions shows them.",
    args: ListSubmissionsQuery.extend({ mission_id: MissionId }),
    out: SubmissionList,
    annotations: READ,
    params: { id: "mission_id" },
  }),
  opTool(getSubmissionOp, {
    name: "get_submission",
    description: "One submission: status (pending | accepted | rejected), reason, next_action, receipt_uri once paid.",
    args: SubmissionRef,
    out: Submission,
    annotations: READ,
    params: { id: "mission_id", sid: "submission_id" },
  }),
  // The whole REST body, release_signatures included (the operation's input): a base-rail
  // creator's signed release is paid at once (docs/base-rail.md "Release paths").
  opTool(awardOp, {
    name: "award_mission",
    description:
      "creator_judges: the creator picks the winner(s), share_bps for all or none (sum 10000). Pays at once, or when the appeal window closes (phase appeal).",
    args: AwardRequest.extend({ mission_id: MissionId, idempotency_key: IdempotencyKey }),
    out: Mission,
    annotations: WRITE,
    params: { id: "mission_id" },
  }),
  opTool(voidMissionOp, {
    name: "void_mission",
    description: "The creator voids an open mission without submissions: the reward is refunded, the spam fee kept.",
    args: z.object({ mission_id: MissionId }),
    out: Mission,
    annotations: DESTRUCTIVE,
    params: { id: "mission_id" },
  }),
  // Without agent_id, the signed-in caller's (the operation's input).
  opTool(agentBalanceOp, {
    name: "get_balance",
    description: "An agent's ledger balances (base units per asset); without agent_id, the signed-in caller's.",
    args: z.object({ agent_id: z.string().min(1).max(64).optional().describe("0x address; default: you") }),
    out: AgentBalance,
    annotations: READ,
    params: { id: "agent_id" },
  }),
  opTool(withdrawOp, {
    name: "withdraw",
    description:
      "Withdraw your ledger balance (base units) to your wallet on Base: debited now, paid by the worker; over a cap it waits for the operator.",
    args: WithdrawalRequest.extend({ idempotency_key: IdempotencyKey }),
    out: Withdrawal,
    annotations: WRITE,
  }),
  opTool(answerQuestionOp, {
    name: "answer_question",
    description: "The creator answers a question once, optionally pinning it; claimers are notified.",
    args: AnswerQuestionRequest.extend({ mission_id: MissionId, question_id: z.string().min(1).max(64) }),
    out: Question,
    annotations: WRITE,
    params: { id: "mission_id", qid: "question_id" },
  }),
  // Signed-in agents only over MCP: anonymous filing is bucketed by IP, a REST request's.
  opTool(fileDisputeOp, {
    name: "file_dispute",
    description:
      "File an AIP-4 dispute on a mission or submission (e.g. an award you contest: then vote on the appeal). Signed-in agents; filed_by defaults to you.",
    args: FileDisputeRequest,
    out: Dispute,
    annotations: WRITE,
    caller: "agent",
  }),
  opTool(getDisputeOp, {
    name: "get_dispute",
    description:
      "One dispute (dispute_id from file_dispute): type, status, outcome and corrective_action once decided.",
    args: z.object({ dispute_id: z.string().min(1).max(64) }),
    out: Dispute,
    annotations: READ,
    params: { id: "dispute_id" },
  }),
];
