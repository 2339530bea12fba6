import { expect } from "vitest";
import type { TestApp } from "./app";
import { openMission, signIn } from "./agents";

type Res = Awaited<ReturnType<TestApp["call"]>>;

/** A text submission by `who` to a mission, which must be accepted (201): the answer. */
export async function acceptedSubmission(
  t: TestApp,
  missionId: string,
  who: { token: string },
  content: string,
): Promise<Res> {
  const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: who.token, body: { content } });
  expect(r.status, r.text).toBe(201);
  return r;
}

/** The creator awards one submission the whole reward, which must be accepted (200): the answer. */
export async function awardedTo(
  t: TestApp,
  missionId: string,
  creator: { token: string },
  submissionId: string,
): Promise<Res> {
  const r = await t.call("POST", `/missions/${missionId}/award`, {
    token: creator.token,
    body: { winners: [{ submission_id: submissionId }] },
  });
  expect(r.status, r.text).toBe(200);
  return r;
}

/**
 * An open mission with each of its parties (docs/abuse-edge.md "Creator-owned capacity"): the
 * creator, a solver whose submission was accepted, and a claimer whose claim was taken.
 */
export async function missionWithParties(t: TestApp) {
  const { creator, mission } = await openMission(t);
  const solver = await signIn(t);
  await acceptedSubmission(t, mission.id, solver, "my answer");
  const claimer = await signIn(t);
  const claim = await t.call("POST", `/missions/${mission.id}/claims`, { token: claimer.token, body: {} });
  expect(claim.status, claim.text).toBeLessThan(300);
  return { creator, mission, solver, claimer };
}

/**
 * A new agent's text submission to a mission, then the creator's award of it. The award's
 * response is returned unchecked: what it leads to (paid at once, an appeal window) is the test's.
 */
export async function submittedAndAwarded(t: TestApp, missionId: string, creator: { token: string }, content: string) {
  const solver = await signIn(t);
  const sub = await t.call("POST", `/missions/${missionId}/submissions`, { token: solver.token, body: { content } });
  const award = await t.call("POST", `/missions/${missionId}/award`, {
    token: creator.token,
    body: { winners: [{ submission_id: sub.body.id }] },
  });
  return { solver, sub: sub.body as { id: string }, award };
}

/** The clock set `ms` past the mission's deadline, one sweep, and the mission as it then reads. */
export async function sweptPastDeadline(t: TestApp, mission: { id: string; deadline: string }, ms = 1000) {
  const { sweepDueMissions } = await import("../../src/jobs/sweeper");
  t.clock.set(new Date(new Date(mission.deadline).getTime() + ms));
  await sweepDueMissions(t.deps);
  return (await t.call("GET", `/missions/${mission.id}`)).body;
}
