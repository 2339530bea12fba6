import { and, eq, sql } from "drizzle-orm";
import { erc20Abi, maxUint256, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { escrowDeposits, missions } from "../../src/db/schema/index";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { signedAward } from "../helpers/award-sign";
import { missionBody, signIn } from "../helpers/agents";
import { escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// "No head-of-line blocking", benchmark-style: 200 deposits and 200
// payouts wait inside an unfinished finality window (OABP_FINALITY 9999 blocks); the 201st
// deposit opens its mission and the 201st payout is sent within 3 job ticks. Bounds are in job
// ticks, never in wall-clock time.

const N = 200;
const REWARD = 1_000_000n;
const SPAM_FEE = 5_000_000n;

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]), { env: { OABP_FINALITY: "9999" } });

const jobTick = async () => {
  await escrowTick(t);
  await chain.mine(1);
};

describe("no head-of-line blocking", () => {
  it(
    "with 200 deposits and 200 payouts short of finality, the 201st deposit opens and the 201st payout is sent within 3 ticks",
    { timeout: 600_000 },
    async () => {
      const creator = await signIn(t);
      const create = async (days: number) => {
        const r = await t.call("POST", "/missions", {
          token: creator.token,
          body: missionBody(t, {
            reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" },
            deadline: new Date(t.clock.now().getTime() + days * 86_400_000).toISOString(),
          }),
        });
        expect(r.status, r.text).toBe(201);
        return { id: r.body.id as string, key: r.body.escrow.mission_key as Hex };
      };
      const many = [];
      for (let i = 0; i < N; i++) many.push(await create(7));
      const late = await create(30); // resolved after the others: the 201st payout
      const last = await create(30); // funded after the others: the 201st deposit

      // One funder backs them all (slots are per key and funder): mint and approve once. It is the
      // creator, so the 201st award is one it signs (released at once, docs/base-rail.md "Release paths").
      const funder = creator.account;
      await chain.setEth(funder.address, 10n ** 20n);
      await chain.mint(funder.address, BigInt(N + 2) * (REWARD + SPAM_FEE));
      const { createWalletClient, http } = await import("viem");
      const w = createWalletClient({ chain: chain.anvil.chain, transport: http(chain.anvil.rpcUrl), account: funder });
      await chain.anvil.publicClient.waitForTransactionReceipt({
        hash: await w.writeContract({
          address: chain.usdc,
          abi: erc20Abi,
          functionName: "approve",
          args: [chain.escrow, maxUint256],
        }),
      });
      const fund = async (key: Hex) => {
        const hash = await w.writeContract({
          address: chain.escrow,
          abi: missionEscrowAbi,
          functionName: "fund",
          args: [key, chain.usdc, REWARD, SPAM_FEE],
          gas: 300_000n,
        });
        return hash;
      };
      let lastHash: Hex | undefined;
      for (const m of [...many, late]) lastHash = await fund(m.key);
      await chain.anvil.publicClient.waitForTransactionReceipt({ hash: lastHash! });
      await chain.mine(2);

      // All 201 open within a bounded number of ticks (50 per batch), then wait for finality.
      const openCount = async () =>
        (
          await t.deps.database.db
            .select({ n: sql<number>`count(*)::int` })
            .from(missions)
            .where(eq(missions.status, "open"))
        )[0]!.n;
      for (let i = 0; i < 10 && (await openCount()) < N + 1; i++) await jobTick();
      expect(await openCount()).toBe(N + 1);

      // The 200 void at their deadline: 200 refunds, sent and confirmed, short of finality.
      t.clock.advance(8 * 86_400_000);
      for (let i = 0; i < 10; i++) if ((await sweepDueMissions(t.deps)) === 0) break;
      const byState = async () =>
        (await t.call("GET", "/treasury", { token: ADMIN_TOKEN })).body.base_rail.pending_settlements
          .by_state as Record<string, number>;
      for (let i = 0; i < 30 && ((await byState()).confirmed ?? 0) < N; i++) await jobTick();
      expect(await byState()).toEqual({ confirmed: N });
      // …and the 201 deposits too (confirmed, not final).
      const [waiting] = await t.deps.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(escrowDeposits)
        .where(and(eq(escrowDeposits.status, "confirmed")));
      expect(waiting!.n).toBe(N + 1);

      // The 201st deposit opens within 3 ticks.
      await fund(last.key);
      for (let i = 0; i < 3; i++) await jobTick();
      expect((await t.call("GET", `/missions/${last.id}`)).body.status).toBe("open");

      // The 201st payout is sent within 3 ticks (and confirmed).
      const solver = await signIn(t);
      const again = await signIn(t, creator.account); // eight days later: a fresh session
      const sub = await t.call("POST", `/missions/${late.id}/submissions`, {
        token: solver.token,
        body: { content: "late answer" },
      });
      expect(sub.status, sub.text).toBe(201);
      expect((await signedAward(t, again, late.id, { winners: [{ submission_id: sub.body.id }] })).award.status).toBe(
        200,
      );
      for (let i = 0; i < 3; i++) await jobTick();
      expect((await t.call("GET", `/missions/${late.id}`)).body.payout_status).toBe("confirmed");
      expect(await chain.usdcBalance(solver.address)).toBeGreaterThan(0n);
    },
  );
});
