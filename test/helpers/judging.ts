import { expect } from "vitest";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import type { TestApp } from "./app";
import type { signIn } from "./agents";

type SignedIn = Awaited<ReturnType<typeof signIn>>;

/** An agent's ledger balance (GET /agents/{address}/balance), in base units. */
export async function balanceOf(t: TestApp, address: string): Promise<bigint> {
  return BigInt((await t.call("GET", `/agents/${address}/balance`)).body.aigen_balance);
}

/** A text submission that must be accepted (201); its id. */
export async function submitAs(t: TestApp, missionId: string, who: SignedIn, content: string): Promise<string> {
  const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: who.token, body: { content } });
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
}

/** Past the deadline and the judging window, each followed by a sweep: the creator never judged. */
export async function letJudgingExpire(t: TestApp, deadline: string): Promise<void> {
  t.clock.set(new Date(new Date(deadline).getTime() + 1000));
  await sweepDueMissions(t.deps);
  t.clock.advance(t.deps.config.judgingWindowSeconds * 1000);
  await sweepDueMissions(t.deps);
}
