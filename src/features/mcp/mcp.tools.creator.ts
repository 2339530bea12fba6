import { z } from "@hono/zod-openapi";
import { AppError } from "../../lib/errors";
import { getAgentBalance, AgentBalance } from "../agents";
import { Mission, voidMission } from "../missions";
import { getSubmission, listSubmissions, ListSubmissionsQuery, Submission, SubmissionList } from "../submissions";
import { awardMission, AwardRequest, awardOnce } from "../verification";
import { DisputeRateLimited, fileDispute, getDispute, Dispute, FileDisputeRequest } from "../disputes";
import { answerQuestion, AnswerQuestionRequest, Question } from "../qa";
import { requestWithdrawal, Withdrawal, WithdrawalRequest, withdrawOnce } from "../withdrawals";
import {
  ctxFromMcp,
  DESTRUCTIVE,
  IdempotencyKey,
  idempotentTool,
  MissionId,
  READ,
  SubmissionRef,
  submissionRef,
  tool,
  type Tool,
  WRITE,
  written,
} from "./mcp.tool";

// The rest of the loop over MCP (docs/mcp.md "Tools"): a creator reads its submissions, awards
// (with shares) or voids, answers questions; anyone reads balances and disputes and files one.
// Each is the REST route's verb with the REST route's schemas (mcp.tool.ts).

export const CREATOR_TOOLS: Tool[] = [
  tool({
    name: "list_submissions",
    description:
      "A mission's submissions in arrival order; the signed-in creator sees them all, others what GET /missions/{id}/submissions shows them.",
    args: ListSubmissionsQuery.extend({ mission_id: MissionId }),
    out: SubmissionList,
    annotations: READ,
    run: async (ctx, a) =>
      JSON.stringify(
        await listSubmissions(ctxFromMcp(ctx), { missionId: a.mission_id, limit: a.limit, cursor: a.cursor }),
      ),
  }),
  tool({
    name: "get_submission",
    description: "One submission: status (pending | accepted | rejected), reason, next_action, receipt_uri once paid.",
    args: SubmissionRef,
    out: Submission,
    annotations: READ,
    run: async (ctx, a) => JSON.stringify(await getSubmission(ctxFromMcp(ctx), submissionRef(a))),
  }),
  idempotentTool({
    name: "award_mission",
    description:
      "creator_judges: the creator picks the winner(s), share_bps for all or none (sum 10000). Pays at once, or when the appeal window closes (phase appeal).",
    args: AwardRequest.extend({ mission_id: MissionId, idempotency_key: IdempotencyKey }),
    out: Mission,
    caller: "agent",
    // The whole REST body, release_signatures included: a base-rail creator's signed release is
    // paid at once (docs/base-rail.md "Release paths"), as on POST /missions/{id}/award.
    call: ({ mission_id, idempotency_key: _key, ...award }, caller) => ({
      request: award,
      once: awardOnce(caller, mission_id),
      verb: (c) => awardMission(c, { missionId: mission_id, award }),
    }),
  }),
  tool({
    name: "void_mission",
    description: "The creator voids an open mission without submissions: the reward is refunded, the spam fee kept.",
    args: z.object({ mission_id: MissionId }),
    out: Mission,
    annotations: DESTRUCTIVE,
    caller: "agent",
    run: async (ctx, a) => written(ctx, JSON.stringify(await voidMission(ctxFromMcp(ctx), { id: a.mission_id }))),
  }),
  tool({
    name: "get_balance",
    description: "An agent's ledger balances (base units per asset); without agent_id, the signed-in caller's.",
    args: z.object({ agent_id: z.string().min(1).max(64).optional().describe("0x address; default: you") }),
    out: AgentBalance,
    annotations: READ,
    run: async (ctx, a) => {
      const agentId = a.agent_id ?? (ctx.identity.kind === "agent" ? ctx.identity.address : undefined);
      if (!agentId) throw new AppError("UNAUTHORIZED", "give agent_id, or sign in to read your own balance");
      return JSON.stringify(await getAgentBalance(ctxFromMcp(ctx), { agentId }));
    },
  }),
  idempotentTool({
    name: "withdraw",
    description:
      "Withdraw your ledger balance (base units) to your wallet on Base: debited now, paid by the worker; over a cap it waits for the operator.",
    args: WithdrawalRequest.extend({ idempotency_key: IdempotencyKey }),
    out: Withdrawal,
    caller: "agent",
    call: ({ idempotency_key: _key, ...body }, caller) => ({
      request: body,
      once: withdrawOnce(caller),
      verb: (c) => requestWithdrawal(c, body),
    }),
  }),
  tool({
    name: "answer_question",
    description: "The creator answers a question once, optionally pinning it; claimers are notified.",
    args: AnswerQuestionRequest.extend({ mission_id: MissionId, question_id: z.string().min(1).max(64) }),
    out: Question,
    annotations: WRITE,
    caller: "agent",
    run: async (ctx, a) =>
      written(
        ctx,
        JSON.stringify(
          await answerQuestion(ctxFromMcp(ctx), {
            missionId: a.mission_id,
            questionId: a.question_id,
            answer: a.answer,
            pinned: a.pinned,
          }),
        ),
      ),
  }),
  tool({
    name: "file_dispute",
    description:
      "File an AIP-4 dispute on a mission or submission (e.g. an award you contest: then vote on the appeal). Signed-in agents; filed_by defaults to you.",
    args: FileDisputeRequest,
    out: Dispute,
    annotations: WRITE,
    caller: "agent",
    run: async (ctx, a, caller) => {
      if (a.filed_by && a.filed_by.toLowerCase() !== caller)
        throw new AppError("FORBIDDEN", "filed_by must be your own address (anonymous filing is REST only)");
      try {
        return JSON.stringify(await fileDispute(ctxFromMcp(ctx), { filer: { address: caller! }, dispute: a }));
      } catch (e) {
        if (!(e instanceof DisputeRateLimited)) throw e;
        // AIP-4 §6.1: the limit and when it resets, as REST's 429 says.
        throw new AppError("RATE_LIMITED", "dispute filing limit reached (AIP-4 §6.1)", {
          reset_at: e.resetAt.toISOString(),
          dispute_type: e.disputeType,
        });
      }
    },
  }),
  tool({
    name: "get_dispute",
    description:
      "One dispute (dispute_id from file_dispute): type, status, outcome and corrective_action once decided.",
    args: z.object({ dispute_id: z.string().min(1).max(64) }),
    out: Dispute,
    annotations: READ,
    run: async (ctx, a) => JSON.stringify(await getDispute(ctxFromMcp(ctx), { id: a.dispute_id })),
  }),
];
