import { expect } from "vitest";
import {
  UNAUTHORIZED,
  ANONYMOUS_REJECTED,
  FORBIDDEN,
  REASON,
  WITHDRAWAL,
  NO_WITHDRAWALS,
  messageUntouched,
  notInMailbox,
  webhookListed,
  type Entry,
} from "./security-matrix.rules";

// Rows of the security matrix (security-matrix.table.ts): webhooks, deposits and withdrawals, the
// inbox, claims, amendments, Q&A, messages, ADP and disputes.

export const EXCHANGE_ROWS: Record<string, Entry> = {
  "POST /webhooks": {
    request: () => ({
      path: "/webhooks",
      body: { url: "https://hooks.example.com/other", events: ["mission.created"] },
    }),
    wrongCaller: { notApplicable: "a new webhook belongs to its caller; there is no owner to impersonate" },
  },
  "GET /webhooks": {
    request: () => ({ path: "/webhooks" }),
    // B's list is B's own: A's webhook is not in it.
    wrongCaller: {
      status: 200,
      after: (_t, w, r) => {
        expect(JSON.stringify(r.body)).not.toContain(w.webhookId);
      },
    },
  },
  "GET /webhooks/{id}": {
    request: (w) => ({ path: `/webhooks/${w.webhookId}` }),
    // A webhook is visible to its owner only: another agent is told it does not exist.
    wrongCaller: { status: 404, code: "NOT_FOUND", after: webhookListed },
  },
  "DELETE /webhooks/{id}": {
    request: (w) => ({ path: `/webhooks/${w.webhookId}` }),
    wrongCaller: { status: 404, code: "NOT_FOUND", after: webhookListed },
  },
  "GET /webhooks/{id}/deliveries": {
    request: (w) => ({ path: `/webhooks/${w.webhookId}/deliveries` }),
    wrongCaller: { status: 404, code: "NOT_FOUND", after: webhookListed },
  },
  "POST /agents/me/deposits": {
    request: () => ({ path: "/agents/me/deposits", body: { asset: "USDC", amount: "10000000" } }),
    // "me" is the caller, and this world has no relayer: any agent gets the same 422.
    wrongCaller: { status: 422, code: "UNPROCESSABLE", reason: "x402_not_enabled" },
  },
  // Withdrawals (docs/withdrawals.md; test/withdrawals/withdrawals.e2e.test.ts on the base rail).
  "POST /agents/me/withdrawals": {
    request: () => ({ path: "/agents/me/withdrawals", body: { asset: "USDC", amount: "1" } }),
    // "me" is the caller, and this world has no base rail: any agent gets the same 422.
    wrongCaller: { status: 422, code: "UNPROCESSABLE", reason: "base_rail_off" },
  },
  "GET /agents/me/withdrawals": {
    request: () => ({ path: "/agents/me/withdrawals" }),
    // "me" is the caller: B's list names none of A's.
    wrongCaller: {
      status: 200,
      after: (_t, w, r) => {
        expect(JSON.stringify(r.body)).not.toContain(w.a.address);
      },
    },
  },
  "GET /admin/withdrawals": {
    request: () => ({ path: "/admin/withdrawals" }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/withdrawals/{id}/approve": {
    request: () => ({ path: `${WITHDRAWAL}/approve`, body: {} }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
    unknownIdsOnly: NO_WITHDRAWALS,
  },
  "POST /admin/withdrawals/{id}/reject": {
    request: () => ({ path: `${WITHDRAWAL}/reject`, body: REASON }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
    unknownIdsOnly: NO_WITHDRAWALS,
  },
  "GET /agents/me/inbox": {
    request: () => ({ path: "/agents/me/inbox" }),
    // "me" is the caller: B's inbox holds none of A's mission's events.
    wrongCaller: {
      status: 200,
      after: (_t, w, r) => {
        expect(JSON.stringify(r.body)).not.toContain(w.openMissionId);
      },
    },
    unknownIdsOnly: "the path names no id: it is the caller's own inbox",
  },
  "POST /missions/{id}/claims": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/claims` }),
    anonymous: ANONYMOUS_REJECTED,
    // The creator may not claim its own mission.
    wrongCaller: {
      ...FORBIDDEN,
      reason: "own_mission",
      by: (w) => w.a,
      label: "the mission's creator claiming its own mission",
    },
  },
  "POST /missions/{id}/amendments": {
    request: (w) => ({
      path: `/missions/${w.openMissionId}/amendments`,
      body: { kind: "extend_deadline", deadline: new Date(Date.parse(w.deadline) + 86_400_000).toISOString() },
    }),
    // Extending a deadline (and editing) is the creator's alone; the deadline stays.
    wrongCaller: {
      ...FORBIDDEN,
      reason: "creator_only",
      after: async (t, w) => {
        const r = await t.call("GET", `/missions/${w.openMissionId}`);
        expect(r.body.amendments_count).toBe(0);
      },
    },
  },
  "DELETE /missions/{id}/claims": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/claims` }),
    // B can only release its own claim: it has none, and the worker's claim stays.
    wrongCaller: {
      status: 404,
      code: "NOT_FOUND",
      after: async (t, w) => {
        const r = await t.call("GET", `/missions/${w.openMissionId}/claims`);
        expect(JSON.stringify(r.body)).toContain(w.worker.address);
      },
    },
  },
  "POST /missions/{id}/questions": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/questions`, body: { body: "Is English required?" } }),
    // Any agent may ask; the creator posts clarifications instead.
    wrongCaller: {
      ...FORBIDDEN,
      reason: "own_mission",
      by: (w) => w.a,
      label: "the mission's creator asking on its own mission",
    },
  },
  "POST /missions/{id}/questions/{qid}/answer": {
    request: (w) => ({
      path: `/missions/${w.openMissionId}/questions/${w.questionId}/answer`,
      body: { answer: "config/keys.toml" },
    }),
    wrongCaller: {
      ...FORBIDDEN,
      reason: "not_creator",
      after: async (t, w) => {
        const r = await t.call("GET", `/missions/${w.openMissionId}/questions`);
        expect(r.body.questions.find((q: { id: string }) => q.id === w.questionId).answer).toBeNull();
      },
    },
  },
  "POST /missions/{id}/clarifications": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/clarifications`, body: { body: "English only." } }),
    wrongCaller: { ...FORBIDDEN, reason: "not_creator" },
  },
  "POST /missions/{id}/submissions/{sid}/messages": {
    request: (w) => ({
      path: `/missions/${w.openMissionId}/submissions/${w.openSubmissionId}/messages`,
      body: { body: "thanks" },
    }),
    wrongCaller: { ...FORBIDDEN, reason: "not_a_party", after: messageUntouched },
  },
  "GET /missions/{id}/submissions/{sid}/messages": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/submissions/${w.openSubmissionId}/messages` }),
    wrongCaller: { ...FORBIDDEN, reason: "not_a_party", after: messageUntouched },
  },
  "GET /messages/inbox": {
    request: () => ({ path: "/messages/inbox" }),
    // B's inbox is B's own: A's message is not in it.
    wrongCaller: { status: 200, after: notInMailbox },
  },
  "GET /messages/sent": {
    request: () => ({ path: "/messages/sent" }),
    wrongCaller: { status: 200, after: notInMailbox },
  },
  "GET /messages/{mid}": {
    request: (w) => ({ path: `/messages/${w.messageId}` }),
    // A message exists for its two parties only: anyone else is told it does not exist.
    wrongCaller: { status: 404, code: "NOT_FOUND", after: messageUntouched },
  },
  "POST /messages/{mid}/read": {
    request: (w) => ({ path: `/messages/${w.messageId}/read` }),
    wrongCaller: { status: 404, code: "NOT_FOUND", after: messageUntouched },
  },
  "POST /adp/adp.advertise": {
    request: (w) => ({
      path: "/adp/adp.advertise",
      body: {
        id: "agent://a-bot",
        name: "A's bot",
        description: "d",
        version: "1.0.0",
        skills: ["python"],
        extensions: { oabp: { agent_id: w.a.address } },
      },
    }),
    // B advertises a card bound to A.
    wrongCaller: { ...FORBIDDEN, reason: "agent_mismatch" },
    // ADP §4.2: an unsigned card needs an agent's session; the admin token is none.
    adminToken: { ...UNAUTHORIZED, reason: "authentication_required" },
    validatesBeforeAuth: true,
  },
  "POST /disputes": {
    request: (w) => ({
      path: "/disputes",
      body: {
        dispute_type: "bad_spec",
        mission_id: w.openMissionId,
        filed_by: w.a.address,
        evidence: { description: "contradictory criteria" },
      },
    }),
    // B files in A's name.
    wrongCaller: FORBIDDEN,
    // Today the admin token reads as "not signed in" here (401), where requireAgent says 403.
    adminToken: UNAUTHORIZED,
    validatesBeforeAuth: true,
  },
  "POST /disputes/{id}/resolve": {
    request: (w) => ({ path: `/disputes/${w.disputeId}/resolve`, body: { outcome: "upheld", rationale: "conceded" } }),
    // Only the operator or the mission's creator (A) rules; B is neither.
    wrongCaller: FORBIDDEN,
    adminToken: "operator",
  },
};
