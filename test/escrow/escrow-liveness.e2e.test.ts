import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chainPayouts, missions } from "../../src/db/schema/index";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { missionBody, signIn } from "../helpers/agents";
import { awardedBaseMission, openBaseMission, REWARD, submitAnswer } from "../helpers/base-rail-mission";
import {
  escrowTick,
  FEE_CAP_BPS,
  POLL_MS,
  RELEASE_DELAY,
  useEscrowApp,
  type EscrowChain,
} from "../helpers/escrow-chain";

// "Outcomes, not outages" and "Winners fit the contract" on anvil, through HTTP: a payout the escrow refuses is failed with its decoded reason while
// another mission's payout confirms within 3 job ticks; more winners than one release can pay
// are refused before any money moves, and a default award splits among at most 64.

let chain: EscrowChain;
let t: TestApp;
// Default awards may pay up to 100 submitters here, so the 64-per-release cap of the base rail decides.
useEscrowApp((c, a) => ([chain, t] = [c, a]), { env: { OABP_DEFAULT_AWARD_MAX_WINNERS: "100" } });

const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
/** One job tick (one poll interval) with one new block, as on Base (a block every 2 s). */
const jobTick = async () => {
  await escrowTick(t);
  await chain.mine(1);
};

/** An open, funded base mission with one submission per winner, awarded to all of them. */
const awarded = (reward: bigint, winners = 1) => awardedBaseMission({ t, chain }, { reward, winners });

const setFeeCap = async (bps: number) => {
  const hash = await chain.anvil.walletClient.writeContract({
    address: chain.escrow,
    abi: missionEscrowAbi,
    functionName: "setFeeCapBps",
    args: [bps],
  });
  await chain.anvil.publicClient.waitForTransactionReceipt({ hash });
};

describe("outcomes, not outages", () => {
  it("a payout refused at estimation is failed with its decoded reason; another mission's payout confirms within 3 ticks; retried by the operator it is checked again", async () => {
    // A's award is decided while the server's fee (OABP_FEE_BPS, 2 % here) is above the contract's
    // cap (1 %): its release reverts FeeTooHigh. (Contract v3 only ever lowers its cap, so the
    // cap itself stays put for the rest of this file.) B is decided at the normal 0.5 %.
    t.deps.config.feeBps = 200;
    const a = await awarded(REWARD);
    t.deps.config.feeBps = 50;
    const b = await awarded(150_000_000n);

    for (let i = 0; i < 3; i++) await jobTick();
    const ma = await mission(a.m.id);
    expect(ma).toMatchObject({ payout_status: "failed", payout_status_reason: "reverted:FeeTooHigh" });
    expect(Date.parse(ma.payout_status_updated_at)).toBeLessThanOrEqual(t.clock.now().getTime()); // served (Appendix B)
    expect(await mission(b.m.id)).toMatchObject({ payout_status: "confirmed" });

    // The operator sees it: real RPC and worker health, counts by state, the failed row with its reason.
    const view = (await t.call("GET", "/treasury", { token: ADMIN_TOKEN })).body.base_rail;
    expect(view.rpc).toBe("ok");
    expect(view.workers.map((w: { name: string; healthy: boolean }) => [w.name, w.healthy])).toEqual([
      ["settlement", true],
      ["watcher", true],
    ]);
    expect(view.pending_settlements.by_state.failed).toBe(1);
    expect(view.oldest_queued_payout_age_seconds).toBeNull(); // nothing waits to be sent
    const failed = view.pending_settlements.items.find((p: { mission_id: string }) => p.mission_id === a.m.id);
    expect(failed).toMatchObject({ state: "failed", reason: "reverted:FeeTooHigh", next_check_at: null });

    // Retried by hand (audit-logged), it goes through the pre-flight check again. Contract v3's fee
    // cap is only ever lowered (a higher one is a new deployment, docs/base-rail.md "Release
    // paths"), so the check refuses it again, with the same decoded reason.
    const list = await t.call("GET", "/admin/payouts?state=failed", { token: ADMIN_TOKEN });
    expect(list.status, list.text).toBe(200);
    const id = list.body.payouts.find((p: { mission_id: string }) => p.mission_id === a.m.id).id as string;
    expect(
      (await t.call("POST", `/admin/payouts/${id}/fail`, { token: ADMIN_TOKEN, body: { reason: "already failed" } }))
        .status,
    ).toBe(409);
    const retried = await t.call("POST", `/admin/payouts/${id}/retry`, {
      token: ADMIN_TOKEN,
      body: { reason: "checking the fee cap again" },
    });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body).toMatchObject({
      state: "queued",
      admin_actions: [{ action: "retry", reason: "checking the fee cap again", from_state: "failed" }],
    });
    for (let i = 0; i < 3; i++) await jobTick();
    expect(await mission(a.m.id)).toMatchObject({
      payout_status: "failed",
      payout_status_reason: "reverted:FeeTooHigh",
    });
    expect(await chain.releasedLogs(a.key)).toBe(0);
    await expect(setFeeCap(FEE_CAP_BPS + 1)).rejects.toThrow(/CapNotLower/);
  });

  it("a retryable outcome backs off on its own row: next_check_at always moves, so it never holds the head of the batch", async () => {
    const a = await awarded(REWARD);
    // The slot is emptied behind the server's back (the resolver key used by hand for a refund).
    const [p] = await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, a.m.id));
    const { createWalletClient, http } = await import("viem");
    const resolver = createWalletClient({
      chain: chain.anvil.chain,
      transport: http(chain.anvil.rpcUrl),
      account: chain.resolver,
    });
    await chain.anvil.publicClient.waitForTransactionReceipt({
      hash: await resolver.writeContract({
        address: chain.escrow,
        abi: missionEscrowAbi,
        functionName: "refund",
        args: [a.key, p!.funder as `0x${string}`],
      }),
    });
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      await escrowTick(t);
      const [row] = await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.id, p!.id));
      expect(row!.nextCheckAt!.getTime()).toBeGreaterThan(t.clock.now().getTime());
      seen.push(row!.retries);
      t.clock.advance(row!.nextCheckAt!.getTime() - t.clock.now().getTime());
    }
    // The slot's refund is not one of this payout's own: it waits (waiting:slot_empty), backing off.
    expect(seen[seen.length - 1]).toBeGreaterThan(0);
    expect((await mission(a.m.id)).payout_status).toBe("queued");
    // Meanwhile an ordinary payout confirms within 3 ticks.
    const b = await awarded(REWARD);
    for (let i = 0; i < 3; i++) await jobTick();
    expect((await mission(b.m.id)).payout_status).toBe("confirmed");
  });
});

describe("winners fit the contract", () => {
  it("65 and 100 max_winners are refused at creation on the base rail, allowed on the ledger", async () => {
    const creator = await signIn(t);
    for (const n of [65, 100]) {
      const r = await t.call("POST", "/missions", {
        token: creator.token,
        body: missionBody(t, {
          reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" },
          verification: { type: "creator_judges", params: { max_winners: n } },
        }),
      });
      expect(r.status, r.text).toBe(422);
      expect(r.body.details).toMatchObject({ reason: "too_many_winners_for_rail", max: 64 });
    }
    const ok = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, {
        reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" },
        verification: { type: "creator_judges", params: { max_winners: 64 } },
      }),
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it(
    "an award of 65 is refused before any money moves (a mission stored with max_winners 100); a default award among 65 submitters pays 64 in full",
    { timeout: 180_000 },
    async () => {
      const c = await openBaseMission({ t, chain });
      // A mission from before the rule: max_winners 100 stored.
      await t.deps.database.db
        .update(missions)
        .set({ verificationParams: { max_winners: 100 } })
        .where(eq(missions.id, c.m.id));
      const subs: { id: string; address: string }[] = [];
      for (let i = 0; i < 65; i++) {
        const { winner, subId } = await submitAnswer(t, { missionId: c.m.id, content: `answer ${i}` });
        subs.push({ id: subId, address: winner.address });
      }
      const award = await t.call("POST", `/missions/${c.m.id}/award`, {
        token: c.creator.token,
        body: { winners: subs.map((s) => ({ submission_id: s.id })) },
      });
      expect(award.status, award.text).toBe(422);
      expect(award.body.details).toMatchObject({ reason: "too_many_winners", max_winners: 64 });
      expect(
        await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, c.m.id)),
      ).toHaveLength(0);

      // The creator never judges: the default award splits among the first 64 distinct submitters.
      t.clock.advance(15 * 86_400_000);
      for (let i = 0; i < 3; i++) await sweepDueMissions(t.deps);
      const resolved = await mission(c.m.id);
      expect(resolved.status, JSON.stringify(resolved)).toBe("resolved");
      expect(resolved.resolution.winners).toHaveLength(64);
      // A default award is the server's own decision: the delayed path (docs/base-rail.md
      // "Release paths") — proposed, then executed once the challenge window has passed.
      for (let i = 0; i < 3; i++) await jobTick();
      expect((await mission(c.m.id)).payout_status_reason).toMatch(/^release_proposed:/);
      await chain.increaseTime(RELEASE_DELAY);
      t.clock.advance(15 * POLL_MS);
      for (let i = 0; i < 3; i++) await jobTick();
      expect((await mission(c.m.id)).payout_status).toBe("confirmed");
      // Paid in full: each of the 64 holds exactly its share (equal split, the remainder to the first).
      const shares = new Map<string, string>(
        resolved.resolution.winners.map((w: { agent_id: string; amount: string }) => [w.agent_id, w.amount]),
      );
      let paid = 0n;
      for (const s of subs.slice(0, 64)) {
        expect(await chain.usdcBalance(s.address)).toBe(BigInt(shares.get(s.address)!));
        paid += BigInt(shares.get(s.address)!);
      }
      // The default-award pool (OABP_DEFAULT_AWARD_BPS, 20 %; docs/abuse.md) is paid in full; the rest
      // of the deposit goes back to its funder.
      expect(paid + BigInt(resolved.resolution.fee_amount)).toBe((REWARD * 2000n) / 10_000n);
      expect(await chain.usdcBalance(subs[64]!.address)).toBe(0n);

      // Afterwards an ordinary payout confirms within 3 ticks.
      const b = await awarded(REWARD);
      for (let i = 0; i < 3; i++) await jobTick();
      expect((await mission(b.m.id)).payout_status).toBe("confirmed");
    },
  );
});
