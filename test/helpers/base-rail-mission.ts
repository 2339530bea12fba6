import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { expect } from "vitest";
import { chainPayouts } from "../../src/db/schema/index";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { signIn } from "./agents";
import type { TestApp } from "./app";
import { signedAward } from "./award-sign";
import { createBaseMission, escrowTick, type EscrowChain } from "./escrow-chain";

// Base-rail missions on anvil in the states the escrow tests start from (docs/base-rail.md): funded
// and open, with submissions, awarded by the creator's signature. Every step checks its status, so
// a test that starts from here fails where the set-up breaks, not later.

/** The reward of a base-rail test mission (100 USDC). */
export const REWARD = 100_000_000n;
/** The spam fee of USDC in `chain.env()`. */
export const SPAM_FEE = 5_000_000n;
/** The operator fee on REWARD (OABP_FEE_BPS default 50). */
export const FEE = (REWARD * 50n) / 10_000n;

/** The app and the chain a base-rail test runs on. */
export interface Rail {
  t: TestApp;
  chain: EscrowChain;
}

export type BaseMission = Awaited<ReturnType<typeof createBaseMission>>;

/** GET /missions/{id} as `token` (anonymous without). */
export async function missionOf(t: TestApp, input: { id: string; token?: string }) {
  return (await t.call("GET", `/missions/${input.id}`, { token: input.token })).body;
}

/** The mission's (first) chain payout row. */
export async function payoutOf(t: TestApp, missionId: string) {
  const rows = await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, missionId));
  if (!rows[0]) throw new Error(`no payout for ${missionId}`);
  return rows[0];
}

/** The escrow's logs of one event for a slot, from the first block. */
export function escrowEvents(
  chain: EscrowChain,
  key: Hex,
  eventName: "ReleaseProposed" | "Refunded" = "ReleaseProposed",
) {
  return chain.anvil.publicClient.getContractEvents({
    address: chain.escrow,
    abi: missionEscrowAbi,
    eventName,
    args: { missionKey: key },
    fromBlock: 0n,
  });
}

/** The escrow's ReleaseProposed logs for a slot (a proposal made twice is a bug). */
export const proposalsOf = (chain: EscrowChain, key: Hex) => escrowEvents(chain, key);

/**
 * A new base mission, funded on chain and open after one round at the confirmation depth.
 * `attach`: the creator also posts the deposit's tx hash (202), else the watcher finds it alone.
 */
export async function openBaseMission(rail: Rail, input: { reward?: bigint; attach?: boolean } = {}) {
  const { t, chain } = rail;
  const reward = input.reward ?? REWARD;
  const c = await createBaseMission(t, reward);
  const hash = await chain.fund(c.creator.account, c.key, reward, SPAM_FEE);
  if (input.attach) {
    const a = await t.call("POST", `/missions/${c.m.id}/escrow`, { token: c.creator.token, body: { tx_hash: hash } });
    expect(a.status, a.text).toBe(202);
  }
  await chain.mine(2);
  await escrowTick(t);
  expect((await missionOf(t, { id: c.m.id })).status).toBe("open");
  return { ...c, hash };
}

/** A new agent's submission to an open mission (201). */
export async function submitAnswer(t: TestApp, input: { missionId: string; content?: string }) {
  const winner = await signIn(t);
  const sub = await t.call("POST", `/missions/${input.missionId}/submissions`, {
    token: winner.token,
    body: { content: input.content ?? `answer for ${input.missionId}` },
  });
  expect(sub.status, sub.text).toBe(201);
  return { winner, subId: sub.body.id as string };
}

/** An open base mission (openBaseMission) with one submission. */
export async function baseMissionWithSubmission(rail: Rail, input: { reward?: bigint; attach?: boolean } = {}) {
  const c = await openBaseMission(rail, input);
  return { ...c, ...(await submitAnswer(rail.t, { missionId: c.m.id })) };
}

/**
 * An open base mission with `winners` submissions (1 by default), all awarded with the creator's
 * signature: released at once (releaseSigned, docs/base-rail.md "Release paths").
 */
export async function awardedBaseMission(
  rail: Rail,
  input: { reward?: bigint; attach?: boolean; winners?: number } = {},
) {
  const c = await openBaseMission(rail, input);
  const subs: Awaited<ReturnType<typeof submitAnswer>>[] = [];
  for (let i = 0; i < (input.winners ?? 1); i++)
    subs.push(await submitAnswer(rail.t, { missionId: c.m.id, content: `answer ${i} for ${c.m.id}` }));
  const { award } = await signedAward(rail.t, c.creator, c.m.id, {
    winners: subs.map((s) => ({ submission_id: s.subId })),
  });
  expect(award.status, award.text).toBe(200);
  return { ...c, ...subs[0]!, subs };
}

/**
 * The creator's award without a release signature (200): the server proposes the release, paid
 * after the challenge window (the delayed path, docs/base-rail.md "Release paths").
 */
export async function awardUnsigned(t: TestApp, input: { token: string; missionId: string; subId: string }) {
  const award = await t.call("POST", `/missions/${input.missionId}/award`, {
    token: input.token,
    body: { winners: [{ submission_id: input.subId }] },
  });
  expect(award.status, award.text).toBe(200);
  return award;
}
