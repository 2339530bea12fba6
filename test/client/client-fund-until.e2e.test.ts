import { decodeFunctionData, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { awardMission } from "../../packages/client/src/award-sign";
import { OabpClient } from "../../packages/client/src/client";
import { escrowFundAbi } from "../../packages/client/src/escrow-fund";
import { fundMission, type FundProgress } from "../../packages/client/src/fund";
import { topUpMission } from "../../packages/client/src/top-up";
import type { CreateMission, Mission } from "../../packages/client/src/types";
import { missionBody, newAccount, signIn } from "../helpers/agents";
import { ADMIN_TOKEN, PUBLIC_URL, type TestApp } from "../helpers/app";
import { escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// The library (docs/base-rail.md "Funding from the tools"): @oabp/client funds through the real
// app on anvil with fundUntil and the mission's escrow.refund_after — by EIP-2612 permit (one
// transaction, no approve) when token and escrow support it, else approve + fundUntil — and awards
// with the creator's release signature (the payout takes the signed path, no challenge window).

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, app) => {
  chain = c;
  t = app;
  t.clock.set(new Date()); // refund_after is checked against the chain's (real) time
});

const REWARD = 20_000_000n;
const SPAM_FEE = 5_000_000n;

function clientOf(account: ReturnType<typeof newAccount>) {
  const fetchVia = ((url: string, init: RequestInit) => t.app.request(url, init)) as typeof fetch;
  return new OabpClient({ baseUrl: PUBLIC_URL, fetch: fetchVia, account, now: () => t.clock.now() });
}

/** The jobs as the runner does them, every 100 ms while `f` runs (blocks keep coming, as on a live chain). */
async function withJobs<T>(f: () => Promise<T>): Promise<T> {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void chain
      .mine(3)
      .then(() => escrowTick(t))
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, 100);
  try {
    return await f();
  } finally {
    clearInterval(timer);
  }
}

async function fundedBy(permit: "auto" | "approve") {
  const creator = newAccount();
  await chain.setEth(creator.address, 10n ** 18n);
  await chain.mint(creator.address, REWARD + SPAM_FEE);
  const client = clientOf(creator);
  const created = await client.createMission(
    missionBody(t, { reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" } }) as CreateMission,
  );
  expect(created.status).toBe("pending_escrow");
  const steps: FundProgress["step"][] = [];
  const m = await withJobs(() =>
    fundMission(client, created.id, {
      rpcUrl: chain.anvil.rpcUrl,
      account: creator,
      permit,
      pollMs: 100,
      maxPolls: 1_200,
      onProgress: (p) => steps.push(p.step),
    }),
  );
  expect(m.status).toBe("open");
  const key = m.escrow!.mission_key as Hex;
  const onChain = await chain.anvil.publicClient.readContract({
    address: chain.escrow,
    abi: escrowFundAbi,
    functionName: "refundAfterOf",
    args: [key, creator.address],
  });
  // The deposit's refund-after is the mission's, to the second (not fund()'s 365 days).
  expect(onChain).toBe(BigInt(Date.parse(m.escrow!.refund_after!) / 1000));
  const tx = await chain.anvil.publicClient.getTransaction({ hash: m.escrow!.deposit!.tx_hash as Hex });
  const call = decodeFunctionData({ abi: escrowFundAbi, data: tx.input });
  const sent = await chain.anvil.publicClient.getTransactionCount({ address: creator.address });
  const { gasUsed } = await chain.anvil.publicClient.getTransactionReceipt({ hash: tx.hash });
  // Sent with headroom (gas.ts), never the bare estimate (which is about what it used).
  expect(tx.gas).toBeGreaterThanOrEqual(gasUsed + 40_000n);
  return { creator, client, m, call, steps, sent };
}

async function payout(missionId: string) {
  const r = await t.call("GET", "/admin/payouts?limit=100", { token: ADMIN_TOKEN });
  expect(r.status).toBe(200);
  return (r.body.payouts as { mission_id: string; release_path: string | null; state: string }[]).find(
    (p) => p.mission_id === missionId,
  );
}

describe("@oabp/client funds with fundUntil(…, escrow.refund_after) and signs its awards (anvil, real app)", () => {
  it(
    "permit (auto): one transaction, fundUntilWithPermit; the award carries the release signature",
    {
      timeout: 240_000,
    },
    async () => {
      const f = await fundedBy("auto");
      expect(f.call.functionName).toBe("fundUntilWithPermit");
      expect(f.steps).toEqual(expect.arrayContaining(["permit", "fund", "attached", "open"]));
      expect(f.steps).not.toContain("approve");
      expect(f.sent).toBe(1); // no approve transaction
      expect(f.call.args[4]).toBe(BigInt(Date.parse(f.m.escrow!.refund_after!) / 1000));

      const solver = await signIn(t);
      const sub = await t.call("POST", `/missions/${f.m.id}/submissions`, {
        token: solver.token,
        body: { content: "the answer" },
      });
      expect(sub.status).toBe(201);
      const awarded = await awardMission(f.client, f.m.id, { winners: [{ submission_id: sub.body.id }] });
      expect(awarded.status).toBe("resolved");
      expect((await payout(f.m.id))?.release_path).toBe("signed");
      // The signed path pays at once: no chain time passes, yet the solver is paid.
      const paid: Mission = await withJobs(async () => {
        for (let i = 0; i < 1_200; i++) {
          const m = await f.client.getMission(f.m.id);
          if (m.payout_status === "confirmed") return m;
          await new Promise((ok) => setTimeout(ok, 100));
        }
        throw new Error("the payout was not confirmed");
      });
      expect(paid.payout_status).toBe("confirmed");
      const fee = (REWARD * BigInt(t.deps.config.feeBps)) / 10_000n;
      expect(await chain.usdcBalance(solver.address)).toBe(REWARD - fee);
    },
  );

  it(
    "approve: approve + fundUntil, with the mission's refund_after and gas headroom",
    { timeout: 240_000 },
    async () => {
      const f = await fundedBy("approve");
      expect(f.call.functionName).toBe("fundUntil");
      expect(f.steps).toEqual(expect.arrayContaining(["approve", "fund", "open"]));
      expect(f.sent).toBe(2);
    },
  );

  it(
    "a base-rail top-up funds its own slot with fundUntil and the top-up's refund_after, then applies",
    {
      timeout: 240_000,
    },
    async () => {
      const f = await fundedBy("auto");
      const extra = 7_000_000n;
      await chain.mint(f.creator.address, extra);
      const steps: string[] = [];
      const a = await withJobs(() =>
        topUpMission(f.client, f.m.id, extra, {
          rpcUrl: chain.anvil.rpcUrl,
          pollMs: 100,
          maxPolls: 1_200,
          onProgress: (p) => steps.push(p.step),
        }),
      );
      expect(a.status).toBe("applied");
      expect(steps).toEqual(expect.arrayContaining(["permit", "fund", "applied"]));
      const e = a.escrow!;
      expect(
        await chain.anvil.publicClient.readContract({
          address: chain.escrow,
          abi: escrowFundAbi,
          functionName: "refundAfterOf",
          args: [e.mission_key as Hex, f.creator.address],
        }),
      ).toBe(BigInt(e.refund_after));
      expect((await f.client.getMission(f.m.id)).reward.amount).toBe((REWARD + extra).toString());
    },
  );
});
