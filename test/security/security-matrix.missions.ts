import {
  UNAUTHORIZED,
  ANONYMOUS_REJECTED,
  FORBIDDEN,
  PAYOUT,
  NO_PAYOUTS,
  REASON,
  missionInNameOfA,
  type Entry,
} from "./security-matrix.rules";

// Rows of the security matrix (security-matrix.table.ts): agents, skills, the mission lifecycle,
// the operator's ledger, moderation, escrow and payout routes.

export const MISSION_ROWS: Record<string, Entry> = {
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
};
