import { decodeFunctionData, type Hex } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { escrowFundAbi } from "../../packages/client/src/escrow-fund";
import { newAccount, signIn } from "../helpers/agents";
import { ADMIN_TOKEN } from "../helpers/app";
import { launchBrowser, sent, shot, startWebServer, walletContext, type WebServer } from "../helpers/browser";
import { escrowTick, startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";

// The base rail from the browser — post, fund from the injected wallet on a local Base (anvil)
// with fundUntil and the mission's escrow.refund_after (permit: one signature, one transaction;
// docs/web.md), watch the page follow the deposit until the mission opens; then award with the
// Award button, the wallet signing the release (eth_signTypedData_v4), and see it paid.

let browser: Browser;
let chain: EscrowChain;
let web: WebServer;

beforeAll(async () => {
  [browser, chain] = await Promise.all([launchBrowser(), startEscrowChain()]);
  web = await startWebServer(chain.env());
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  await chain?.stop();
});

it(
  "post a base-rail mission, fund it from the wallet (permit + fundUntil), watch it open, award it signed",
  { timeout: 180_000 },
  async () => {
    const { t, url } = web;
    const alice = newAccount();
    await chain.setEth(alice.address, 10n ** 18n);
    await chain.mint(alice.address, 15_000_000n); // 10 USDC reward + 5 USDC spam fee
    const ctx = await walletContext(browser, { account: alice, chain: chain.anvil.chain, rpcUrl: chain.anvil.rpcUrl });
    const page = await ctx.newPage();
    await page.goto(`${url}/me`);
    await page.getByRole("button", { name: "Sign in with Test Wallet" }).click();
    await page.getByRole("heading", { name: /Signed in as/ }).waitFor();

    await page.goto(`${url}/post`);
    await page.getByLabel("Title").fill("Funded from a browser wallet");
    await page.getByLabel(/^Description/).fill("Paid on Base.");
    await page.getByLabel(/^Reward amount/).fill("10");
    await page.getByLabel("Where the reward is held").selectOption("base");
    await page.getByRole("button", { name: "Post mission" }).click();
    await page.waitForURL(/\/m\/mis_/);
    const id = new URL(page.url()).pathname.split("/")[2]!;
    expect(await page.locator("article").getAttribute("data-status")).toBe("pending_escrow");
    await shot(page, "base-pending");
    // The creator finds it under /me while it waits (public lists never show pending missions).
    await page.goto(`${url}/me`);
    expect(await page.locator("#my-pending a").first().textContent()).toBe("Funded from a browser wallet");
    await page.goto(`${url}/m/${id}`);

    await page.getByRole("button", { name: /Fund from wallet/ }).click();
    // The page says where it is while the server waits for the confirmation depth; the jobs run here.
    await expect
      .poll(() => page.locator("#action-status").textContent(), { timeout: 60_000 })
      .toMatch(/Waiting for confirmations|Funded/);
    await shot(page, "base-funding");
    await expect
      .poll(
        async () => {
          await chain.mine(3);
          await escrowTick(t);
          return (await t.call("GET", `/missions/${id}`)).body.status;
        },
        { timeout: 90_000, interval: 200 },
      )
      .toBe("open");
    await expect.poll(() => page.locator("article").getAttribute("data-status"), { timeout: 15_000 }).toBe("open");
    const m = (await t.call("GET", `/missions/${id}`)).body;
    expect(m.escrow.deposit).toMatchObject({ status: "confirmed" });
    expect(await chain.usdcBalance(alice.address)).toBe(0n);
    expect(await page.locator(`#escrow [data-copy="${m.escrow.deposit.tx_hash}"]`).count()).toBe(1);
    await shot(page, "base-open");

    // The deposit: fundUntilWithPermit with the mission's refund_after, one transaction, gas headroom.
    const pc = chain.anvil.publicClient;
    const tx = await pc.getTransaction({ hash: m.escrow.deposit.tx_hash as Hex });
    const call = decodeFunctionData({ abi: escrowFundAbi, data: tx.input });
    expect(call.functionName).toBe("fundUntilWithPermit");
    const refundAfter = BigInt(Date.parse(m.escrow.refund_after) / 1000);
    expect(
      await pc.readContract({
        address: chain.escrow,
        abi: escrowFundAbi,
        functionName: "refundAfterOf",
        args: [m.escrow.mission_key, alice.address],
      }),
    ).toBe(refundAfter);
    expect(await pc.getTransactionCount({ address: alice.address })).toBe(1); // no approve
    const { gasUsed } = await pc.getTransactionReceipt({ hash: tx.hash });
    expect(sent.find((s) => s.data === tx.input)?.gas).toBe(tx.gas);
    expect(tx.gas).toBeGreaterThanOrEqual(gasUsed + 40_000n);

    // A solver answers; the creator awards it from the page, the wallet signs the release.
    const solver = await signIn(t);
    const sub = await t.call("POST", `/missions/${id}/submissions`, { token: solver.token, body: { content: "42" } });
    expect(sub.status).toBe(201);
    await page.reload();
    await page.locator(`.award-pick[value="${sub.body.id}"]`).check();
    await page.getByRole("button", { name: "Award selected submissions" }).click();
    await expect.poll(() => page.locator("article").getAttribute("data-status"), { timeout: 30_000 }).toBe("resolved");
    const payouts = await t.call("GET", "/admin/payouts?limit=100", { token: ADMIN_TOKEN });
    expect(payouts.body.payouts.find((p: { mission_id: string }) => p.mission_id === id)).toMatchObject({
      kind: "release",
      release_path: "signed",
    });
    await expect
      .poll(
        async () => {
          await chain.mine(3);
          await escrowTick(t);
          return (await t.call("GET", `/missions/${id}`)).body.payout_status;
        },
        { timeout: 90_000, interval: 200 },
      )
      .toBe("confirmed");
    const fee = (10_000_000n * BigInt(t.deps.config.feeBps)) / 10_000n;
    expect(await chain.usdcBalance(solver.address)).toBe(10_000_000n - fee);
    await shot(page, "base-awarded");
    await ctx.close();
  },
);
