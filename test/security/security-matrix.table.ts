import { expect } from "vitest";
import type { TestApp } from "../helpers/app";
import type { signIn } from "../helpers/agents";

// Per-operation fixtures of the security matrix (security-matrix.int.test.ts), keyed by
// "METHOD /path" exactly as openapi/openapi.json spells it. A secured operation without a row here
// fails the matrix's coverage test.

export type Agent = Awaited<ReturnType<typeof signIn>>;
type Res = Awaited<ReturnType<TestApp["call"]>>;

/** Real resources built once per file through HTTP: A owns them, B is a stranger. */
export interface World {
  a: Agent;
  b: Agent;
  /** Won A's resolved mission, holds a claim on A's open one and filed a dispute on it. */
  worker: Agent;
  /** Signed in like the others; the matrix replays it past the session TTL. */
  expired: Agent;
  openMissionId: string;
  openSubmissionId: string;
  resolvedMissionId: string;
  /** A's review of the worker for the resolved mission. */
  reviewId: string;
  webhookId: string;
  disputeId: string;
  /** The worker's question on A's open mission. */
  questionId: string;
  /** The worker's private message to A about its submission to A's open mission. */
  messageId: string;
  /** A's Agent Mesh skill. */
  skillId: string;
  /** A mission deadline a week after the test clock. */
  deadline: string;
}

export interface Expected {
  status: number;
  code: string;
  /** details.reason, where the route names one. */
  reason?: string;
}

export type WrongCaller =
  | {
      status: number;
      /** The error code; absent for a 2xx answer (a list that leaves A's resources out). */
      code?: string;
      reason?: string;
      /** Who calls instead of A; B unless said (then say who in label). */
      by?: (w: World) => Agent;
      label?: string;
      /** Afterwards, given the answer: nothing of A's leaked and A's resource is untouched. */
      after?: (t: TestApp, w: World, r: Res) => Promise<void> | void;
    }
  | { notApplicable: string };

export interface Entry {
  /** The request A may make: real ids and a valid body, so neither validation nor lookup answers first. */
  request(w: World): { path: string; body?: unknown };
  /** What an anonymous caller gets (401 UNAUTHORIZED unless the route declares otherwise). */
  anonymous?: Expected;
  /** Another agent on A's resource, or (operatorOnly) a normal agent. */
  wrongCaller: WrongCaller;
  /** Operator-only (requireAdmin): a normal agent's session is an identity, just not the admin one. */
  operatorOnly?: true;
  /**
   * The operator's admin token: FORBIDDEN_AGENT_VERB unless said ("the admin token does not act as
   * an agent"); "operator" where the operator may act (implied by operatorOnly; not called here,
   * since the call would act).
   */
  adminToken?: Expected | "operator";
  /** Why the fixture path already names ids nothing has (no "unknown ids" case for the row). */
  unknownIdsOnly?: string;
  /**
   * An anonymous caller with an invalid body gets 400 before the refusal (the validator runs
   * first): only routes where an anonymous caller may act depending on the body (a signed card,
   * an anonymous bad_spec dispute). Routes that always need a caller refuse first (requireCaller).
   */
  validatesBeforeAuth?: true;
}

export const UNAUTHORIZED: Expected = { status: 401, code: "UNAUTHORIZED" };
/** AIP-1 §1.4: would-be workers without an identity get exactly 403 {"error":"ANONYMOUS_SUBMISSION_REJECTED"}. */
const ANONYMOUS_REJECTED: Expected = { status: 403, code: "ANONYMOUS_SUBMISSION_REJECTED" };
export const FORBIDDEN: Expected = { status: 403, code: "FORBIDDEN" };
/** requireAgent: the admin token is an identity, but never an agent's. */
export const FORBIDDEN_AGENT_VERB: Expected = FORBIDDEN;
const PAYOUT = "/admin/payouts/pay_01JZ0000000000000000000000";
/** Payouts are base-rail transfers (test/escrow-*.test.ts); the ledger rail this file runs on has none. */
const NO_PAYOUTS = "no payout exists on the ledger rail; requireAdmin answers before any lookup";
const REASON = { reason: "operator check" };
const WITHDRAWAL = "/admin/withdrawals/wd_01JZ0000000000000000000000";
/** Withdrawals are paid on the base rail; the ledger rail this file runs on has none. */
const NO_WITHDRAWALS = "no withdrawal exists on the ledger rail; requireAdmin answers before any lookup";

const missionInNameOfA = (w: World) => ({
  title: "Find the key",
  description: "Locate the configuration key and submit it.",
  reward: { asset: "USDC", amount: "1000" },
  verification: { type: "creator_judges", params: {} },
  deadline: w.deadline,
  tags: ["search"],
  creator: w.a.address,
});

/** A's message from the worker is still there, unread, for A alone. */
const messageUntouched = async (t: TestApp, w: World, r: Res) => {
  expect(r.text).not.toContain("a private note");
  const mine = await t.call("GET", `/messages/${w.messageId}`, { token: w.a.token });
  expect(mine.status, mine.text).toBe(200);
  expect(mine.body.read_at).toBeNull();
};
const notInMailbox = (_t: TestApp, w: World, r: Res) => {
  expect(r.body.messages).toEqual([]);
  expect(r.text).not.toContain(w.messageId);
};

const webhookListed = async (t: TestApp, w: World) => {
  const mine = await t.call("GET", `/webhooks/${w.webhookId}`, { token: w.a.token });
  expect(mine.status, mine.text).toBe(200);
};

export const MATRIX: Record<string, Entry> = {
  "PUT /agents/{id}": {
    request: (w) => ({ path: `/agents/${w.a.address}`, body: { display_name: "Ada" } }),
    wrongCaller: FORBIDDEN,
  },
  "GET /agents/{id}/blocklist": {
    request: (w) => ({ path: `/agents/${w.a.address}/blocklist` }),
    wrongCaller: { ...FORBIDDEN, reason: "not_owner" },
  },
  "PUT /agents/{id}/blocklist": {
    request: (w) => ({ path: `/agents/${w.a.address}/blocklist`, body: { addresses: [w.b.address] } }),
    wrongCaller: { ...FORBIDDEN, reason: "not_owner" },
  },
  "POST /agents/{id}/reviews": {
    request: (w) => ({
      path: `/agents/${w.worker.address}/reviews`,
      body: { mission_id: w.resolvedMissionId, stars: 4 },
    }),
    wrongCaller: { ...FORBIDDEN, reason: "not_a_party" },
  },
  "PUT /agents/{id}/reviews/{review_id}": {
    request: (w) => ({ path: `/agents/${w.worker.address}/reviews/${w.reviewId}`, body: { stars: 1 } }),
    wrongCaller: { ...FORBIDDEN, reason: "not_author" },
  },
  "DELETE /agents/{id}/reviews/{review_id}": {
    request: (w) => ({ path: `/agents/${w.worker.address}/reviews/${w.reviewId}` }),
    wrongCaller: { ...FORBIDDEN, reason: "not_author" },
  },
  "POST /agents/{id}/heartbeat": {
    request: (w) => ({ path: `/agents/${w.a.address}/heartbeat` }),
    wrongCaller: { ...FORBIDDEN, reason: "not_self" },
  },
  "POST /skills": {
    // The Mesh routes take an agent identity (a session, a bearer or a mesh API key); the admin token is none.
    adminToken: UNAUTHORIZED,
    request: (w) => ({
      path: "/skills",
      body: {
        agentId: w.a.address,
        name: "matrix_other",
        description: "another skill",
        endpoint: "https://skills.example.com/x",
      },
    }),
    // B registers a skill in A's name.
    wrongCaller: { ...FORBIDDEN, reason: "not_self" },
  },
  "DELETE /skills/{id}": {
    // The Mesh routes take an agent identity (a session, a bearer or a mesh API key); the admin token is none.
    adminToken: UNAUTHORIZED,
    request: (w) => ({ path: `/skills/${w.skillId}` }),
    wrongCaller: { ...FORBIDDEN, reason: "not_owner" },
  },
  "POST /skills/{id}/invoke": {
    // The Mesh routes take an agent identity (a session, a bearer or a mesh API key); the admin token is none.
    adminToken: UNAUTHORIZED,
    request: (w) => ({ path: `/skills/${w.skillId}/invoke`, body: { payload: { q: "x" } } }),
    wrongCaller: { notApplicable: 'any agent may invoke a registered skill (docs/neighbours.md "Agent Mesh")' },
  },
  "POST /missions": {
    request: (w) => ({ path: "/missions", body: missionInNameOfA(w) }),
    // B names A as the creator.
    wrongCaller: FORBIDDEN,
  },
  "POST /missions/{id}/void": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/void` }),
    wrongCaller: FORBIDDEN,
  },
  "POST /missions/{id}/submissions": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/submissions`, body: { content: "another answer" } }),
    anonymous: ANONYMOUS_REJECTED,
    wrongCaller: {
      notApplicable: "any agent may submit; the creator's own submission is stored rejected (AIP-3 §3.1), not refused",
    },
  },
  "POST /missions/{id}/submit": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/submit`, body: { content: "another answer" } }),
    anonymous: ANONYMOUS_REJECTED,
    wrongCaller: { notApplicable: "alias of POST /missions/{id}/submissions" },
  },
  "POST /missions/{id}/award": {
    request: (w) => ({
      path: `/missions/${w.openMissionId}/award`,
      body: { winners: [{ submission_id: w.openSubmissionId, share_bps: 10_000 }] },
    }),
    wrongCaller: FORBIDDEN,
  },
  "POST /missions/{id}/award/typed-data": {
    request: (w) => ({
      path: `/missions/${w.openMissionId}/award/typed-data`,
      body: { winners: [{ submission_id: w.openSubmissionId, share_bps: 10_000 }] },
    }),
    wrongCaller: FORBIDDEN,
  },
  "POST /missions/{id}/votes": {
    request: (w) => ({
      path: `/missions/${w.openMissionId}/votes`,
      body: { submission_id: w.openSubmissionId, amount: "100" },
    }),
    anonymous: ANONYMOUS_REJECTED,
    wrongCaller: {
      notApplicable:
        "any agent may stake; the creator and own-submission rules are in test/verification/aip1-voting.int.test.ts",
    },
  },
  "POST /missions/{id}/commitments": {
    request: (w) => ({
      path: `/missions/${w.openMissionId}/commitments`,
      body: { commitment: `sha256:${"ab".repeat(32)}` },
    }),
    anonymous: ANONYMOUS_REJECTED,
    wrongCaller: {
      notApplicable: "any agent may commit; the creator rule is in test/verification/commit-reveal.int.test.ts",
    },
  },
  "POST /admin/ledger/credit": {
    request: (w) => ({ path: "/admin/ledger/credit", body: { agent_id: w.b.address, asset: "USDC", amount: "1" } }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "GET /admin/ledger/verify": {
    request: () => ({ path: "/admin/ledger/verify" }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  // Moderation (docs/moderation.md; test/moderation/moderation.int.test.ts).
  "POST /missions/{id}/reports": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/reports`, body: { reason: "spam" } }),
    wrongCaller: { notApplicable: "any agent may report a mission it can see; own_mission is in test/moderation" },
  },
  "POST /admin/missions/{id}/hide": {
    request: (w) => ({ path: `/admin/missions/${w.openMissionId}/hide`, body: REASON }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/missions/{id}/unhide": {
    request: (w) => ({ path: `/admin/missions/${w.openMissionId}/unhide`, body: REASON }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "GET /admin/agents/{address}/suspension": {
    request: (w) => ({ path: `/admin/agents/${w.b.address}/suspension` }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/agents/{address}/suspend": {
    request: (w) => ({ path: `/admin/agents/${w.b.address}/suspend`, body: REASON }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/agents/{address}/unsuspend": {
    request: (w) => ({ path: `/admin/agents/${w.b.address}/unsuspend`, body: REASON }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "GET /admin/reports": {
    request: () => ({ path: "/admin/reports" }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/reports/{id}/resolve": {
    request: () => ({ path: "/admin/reports/rep_01JZ0000000000000000000000/resolve", body: {} }),
    unknownIdsOnly: "requireAdmin answers before any lookup",
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/reports/{id}/dismiss": {
    request: () => ({ path: "/admin/reports/rep_01JZ0000000000000000000000/dismiss", body: {} }),
    unknownIdsOnly: "requireAdmin answers before any lookup",
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "GET /admin/posting-allowlist": {
    request: () => ({ path: "/admin/posting-allowlist" }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "PUT /admin/posting-allowlist/{address}": {
    request: (w) => ({ path: `/admin/posting-allowlist/${w.b.address}`, body: {} }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "DELETE /admin/posting-allowlist/{address}": {
    request: (w) => ({ path: `/admin/posting-allowlist/${w.b.address}` }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "GET /admin/audit": {
    request: () => ({ path: "/admin/audit" }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /missions/{id}/escrow": {
    request: (w) => ({ path: `/missions/${w.openMissionId}/escrow`, body: { tx_hash: `0x${"ab".repeat(32)}` } }),
    // Today the rail check answers before the creator check: on a ledger-rail mission a stranger
    // gets 422 not_base_rail, which tells it nothing it could not read from GET /missions/{id}.
    wrongCaller: { status: 422, code: "UNPROCESSABLE", reason: "not_base_rail" },
  },
  "POST /missions/{id}/escrow/authorization": {
    request: (w) => ({
      path: `/missions/${w.openMissionId}/escrow/authorization`,
      body: { valid_after: "0", valid_before: "1", salt: `0x${"ab".repeat(32)}`, signature: `0x${"cd".repeat(65)}` },
    }),
    // As POST /missions/{id}/escrow: the rail check answers first, telling nothing GET /missions/{id} does not.
    wrongCaller: { status: 422, code: "UNPROCESSABLE", reason: "not_base_rail" },
  },
  "GET /treasury": {
    request: () => ({ path: "/treasury" }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "GET /admin/payouts": {
    request: () => ({ path: "/admin/payouts" }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  // Also OABP_METRICS_TOKEN (test/transparency/metrics.int.test.ts).
  "GET /metrics": {
    request: () => ({ path: "/metrics" }),
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/payouts/{id}/retry": {
    request: () => ({ path: `${PAYOUT}/retry`, body: REASON }),
    unknownIdsOnly: NO_PAYOUTS,
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/payouts/{id}/fail": {
    request: () => ({ path: `${PAYOUT}/fail`, body: REASON }),
    unknownIdsOnly: NO_PAYOUTS,
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
  "POST /admin/payouts/{id}/convert": {
    request: () => ({ path: `${PAYOUT}/convert`, body: REASON }),
    unknownIdsOnly: NO_PAYOUTS,
    operatorOnly: true,
    wrongCaller: FORBIDDEN,
  },
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
