import { expect } from "vitest";
import type { TestApp } from "../helpers/app";
import type { signIn } from "../helpers/agents";

// What the rows of the security matrix (security-matrix.table.ts) are made of: the world they run
// in, the shape of a row and the answers and checks the rows share.

export type Agent = Awaited<ReturnType<typeof signIn>>;
export type Res = Awaited<ReturnType<TestApp["call"]>>;

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
   * The operator's admin token: FORBIDDEN unless said (requireAgent: the admin token is an
   * identity, but never an agent's); "operator" where the operator may act (implied by operatorOnly; not called here,
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
export const ANONYMOUS_REJECTED: Expected = { status: 403, code: "ANONYMOUS_SUBMISSION_REJECTED" };
export const FORBIDDEN: Expected = { status: 403, code: "FORBIDDEN" };
export const PAYOUT = "/admin/payouts/pay_01JZ0000000000000000000000";
/** Payouts are base-rail transfers (test/escrow-*.test.ts); the ledger rail this file runs on has none. */
export const NO_PAYOUTS = "no payout exists on the ledger rail; requireAdmin answers before any lookup";
export const REASON = { reason: "operator check" };
export const WITHDRAWAL = "/admin/withdrawals/wd_01JZ0000000000000000000000";
/** Withdrawals are paid on the base rail; the ledger rail this file runs on has none. */
export const NO_WITHDRAWALS = "no withdrawal exists on the ledger rail; requireAdmin answers before any lookup";

export const missionInNameOfA = (w: World) => ({
  title: "Find the key",
  description: "Locate the configuration key and submit it.",
  reward: { asset: "USDC", amount: "1000" },
  verification: { type: "creator_judges", params: {} },
  deadline: w.deadline,
  tags: ["search"],
  creator: w.a.address,
});

/** A's message from the worker is still there, unread, for A alone. */
export const messageUntouched = async (t: TestApp, w: World, r: Res) => {
  expect(r.text).not.toContain("a private note");
  const mine = await t.call("GET", `/messages/${w.messageId}`, { token: w.a.token });
  expect(mine.status, mine.text).toBe(200);
  expect(mine.body.read_at).toBeNull();
};
export const notInMailbox = (_t: TestApp, w: World, r: Res) => {
  expect(r.body.messages).toEqual([]);
  expect(r.text).not.toContain(w.messageId);
};

export const webhookListed = async (t: TestApp, w: World) => {
  const mine = await t.call("GET", `/webhooks/${w.webhookId}`, { token: w.a.token });
  expect(mine.status, mine.text).toBe(200);
};
