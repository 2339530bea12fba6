import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { newAccount } from "../helpers/agents";
import { launchBrowser, shot, startWebServer, walletContext, type WebServer } from "../helpers/browser";
import { escrowTick, startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";

// Issue 17: the base rail from the browser — post, approve + fund from the injected wallet on a
// local Base (anvil), and watch the page follow the deposit until the mission opens.

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
  "post a base-rail mission, fund it from the wallet (approve + fund), and watch it open",
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
    await page.getByLabel("Rail").selectOption("base");
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
    expect(await page.locator("#escrow").textContent()).toContain(m.escrow.deposit.tx_hash);
    await shot(page, "base-open");
    await ctx.close();
  },
);
