import { expect } from "vitest";
import { signIn } from "./agents";
import type { TestApp } from "./app";
import { letJudgingExpire, submitAs } from "./judging";

/**
 * Four fresh identities submit to a mission its creator never judges: with nobody proven and no
 * age to tell them apart, the earliest share the default pool (docs/abuse.md "Default outcomes").
 */
export async function expectEarliestFreshShare(t: TestApp, mission: { id: string; deadline: string }) {
  const fresh = [];
  for (let i = 0; i < 4; i++) fresh.push(await signIn(t));
  for (const [i, f] of fresh.entries()) await submitAs(t, mission.id, f, `fresh ${i} ${f.address}`);
  await letJudgingExpire(t, mission.deadline);
  const m = (await t.call("GET", `/missions/${mission.id}`)).body;
  expect(m.resolution.winners.map((w: { agent_id: string }) => w.agent_id)).toEqual(
    fresh.slice(0, t.deps.config.abuse.defaultAwardMaxWinners).map((f) => f.address),
  );
}
