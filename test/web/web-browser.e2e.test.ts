import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { base } from "viem/chains";
import { credit, missionBody, newAccount, signIn } from "../helpers/agents";
import { axeViolations, shot, walletContext } from "../helpers/browser";
import { useBrowserSuite } from "../helpers/browser-suite";

// "Real browser tests": headless Chromium, an injected EIP-1193/EIP-6963 test wallet,
// every flow through the pages and the wallet script. Screenshots go to test-results/web/.

const suite = useBrowserSuite();

const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script><svg onload="window.__xss=1">`;

/** Nothing injected ran: no flag, no dialog, no element carrying an event handler from user text. */
async function expectNoScriptRan(page: Page, dialogs: string[]): Promise<void> {
  expect(await page.evaluate("window.__xss")).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(`document.querySelectorAll("[onerror],[onload],[onclick]").length`)).toBe(0);
}

async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

async function signInWith(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/me`);
  await page.getByRole("button", { name: "Sign in with Test Wallet" }).click();
  await page.getByRole("heading", { name: /Signed in as/ }).waitFor();
}

// Real browser flows on a shared 2-core CI machine: generous per-test time, never a timing assertion.
describe("web board in Chromium", { timeout: 120_000 }, () => {
  it("browse, filter, page and search the board", async () => {
    const { t, url } = suite.web;
    const creator = await signIn(t);
    await credit(t, creator.address, 10_000_000_000n);
    for (let i = 0; i < 23; i++) {
      const r = await t.call("POST", "/missions", {
        token: creator.token,
        body: missionBody(t, { title: `Board item ${i}`, tags: ["brw", i % 2 ? "brw-odd" : "brw-even"] }),
      });
      expect(r.status).toBe(201);
    }
    await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { title: "Translate the zebra manual", tags: ["brw", "translation"] }),
    });
    const ctx = await suite.browser.newContext();
    const page = await ctx.newPage();
    // Scoped by this test's tag, so missions other tests post never change the counts.
    await page.goto(`${url}/?tag=brw`);
    expect(await page.locator("ul.missions > li").count()).toBe(20);
    await expectAccessible(page);
    await shot(page, "board");
    await page.getByRole("link", { name: "Next page" }).click();
    expect(await page.locator("ul.missions > li").count()).toBe(4);
    await page.getByRole("link", { name: "First page" }).click();
    await page.getByLabel("Search").fill("zebra");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect
      .poll(() => page.locator("ul.missions > li h2").allTextContents())
      .toEqual(["Translate the zebra manual"]);
    await page.goto(`${url}/?tag=brw-odd&sort=deadline`);
    expect(await page.locator("ul.missions > li").count()).toBe(11);
    // A bad filter is the board's form saying what to fix (HTML 400), never a 500.
    const bad = await page.goto(`${url}/?min_reward=-1`);
    expect(bad?.status()).toBe(400);
    expect(await page.getByRole("alert").innerText()).toContain("Enter an amount in USDC");
    await ctx.close();
  });

  it("sign in, post (ledger rail), a second wallet claims and submits, the first awards, the winner verifies the receipt", async () => {
    const { t, url } = suite.web;
    const alice = newAccount();
    const bob = newAccount();
    const ca = await walletContext(suite.browser, { account: alice, chain: base });
    const cb = await walletContext(suite.browser, { account: bob, chain: base });
    const pa = await ca.newPage();
    const pb = await cb.newPage();

    await pa.goto(`${url}/me`);
    await expectAccessible(pa);
    await shot(pa, "sign-in");
    await signInWith(pa, url);
    await credit(t, alice.address.toLowerCase(), 500_000_000n);
    await pa.reload();
    await expect.poll(() => pa.locator("#balances").textContent()).toContain("500 USDC");
    await shot(pa, "me-creator");

    await pa.goto(`${url}/post`);
    await expectAccessible(pa);
    await pa.getByLabel("Title").fill("Write a haiku about escrow");
    await pa.getByLabel(/^Description/).fill("Five, seven, five. **Bold** wins.");
    await pa.getByLabel(/^Reward amount/).fill("25.5");
    await pa.getByLabel(/^Tags/).fill("poetry, fun");
    await shot(pa, "post");
    await pa.getByRole("button", { name: "Post mission" }).click();
    await pa.waitForURL(/\/m\/mis_/);
    const missionId = new URL(pa.url()).pathname.split("/")[2]!;
    await expect.poll(() => pa.locator("h1").first().textContent()).toBe("Write a haiku about escrow");
    expect(await pa.locator(".md strong").textContent()).toBe("Bold");
    const m = (await t.call("GET", `/missions/${missionId}`)).body;
    expect(m).toMatchObject({
      status: "open",
      creator: alice.address.toLowerCase(),
      reward: { amount: "25500000", asset: "USDC", chain: "ledger" },
      tags: ["poetry", "fun"],
    });
    expect(m.view_url).toBe(`${url}/m/${missionId}`);

    await signInWith(pb, url);
    await pb.goto(`${url}/m/${missionId}`);
    await pb.getByRole("button", { name: "I'm working on it" }).click();
    await expect.poll(() => pb.locator("#claims-h").textContent()).toBe("Working on it (1)");
    await pb.getByLabel(/^Answer/).fill("Coins wait in the vault\nuntil the judge says the word\nthen the haiku pays");
    await pb.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => pb.locator("#subs-h").textContent()).toBe("Submissions (1)");
    await expectAccessible(pb);
    await shot(pb, "mission-solver");

    await pa.reload();
    expect(await pa.locator("pre.deliverable").textContent()).toContain("Coins wait in the vault");
    await pa.locator(".award-pick").first().check();
    await shot(pa, "mission-judge");
    await pa.getByRole("button", { name: "Award selected submissions" }).click();
    await pa.getByRole("heading", { name: "Winners" }).waitFor();
    await expectAccessible(pa);
    await shot(pa, "mission-resolved");

    await pb.goto(`${url}/me`);
    await pb.locator("#my-receipts a").first().click();
    await expect.poll(() => pb.locator("#receipt-verdict").textContent()).toMatch(/^Valid/);
    await expectAccessible(pb);
    await shot(pb, "receipt");
    // The winner's balance: 25.5 minus the 0.5 % protocol fee (0.1275).
    await pb.goto(`${url}/me`);
    expect(await pb.locator("#balances").textContent()).toContain("25.3725 USDC");

    // Sign-out revokes the session: the cookie no longer acts.
    await pb.getByRole("button", { name: "Sign out" }).click();
    await pb.waitForURL(`${url}/`);
    await pb.goto(`${url}/me`);
    await pb.getByRole("heading", { name: "Sign in" }).waitFor();
    await Promise.all([ca.close(), cb.close()]);
  });

  it("XSS attempts in titles, descriptions, reviews and deliverables execute nothing", async () => {
    const { t, url } = suite.web;
    const creator = await signIn(t);
    const solver = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const created = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, {
        title: `T ${XSS}`.slice(0, 200),
        description: `# D\n${XSS}\n[click](javascript:window.__xss=1) <a href="javascript:window.__xss=1">a</a>\n\n\`\`\`\n${XSS}\n\`\`\``,
      }),
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const sub = await t.call("POST", `/missions/${id}/submissions`, {
      token: solver.token,
      body: { content: `${XSS}</pre>${XSS}` },
    });
    expect(sub.status).toBe(201);
    expect(
      (
        await t.call("POST", `/missions/${id}/award`, {
          token: creator.token,
          body: { winners: [{ submission_id: sub.body.id }] },
        })
      ).status,
    ).toBe(200);
    const review = await t.call("POST", `/agents/${solver.address}/reviews`, {
      token: creator.token,
      body: { mission_id: id, stars: 5, text: XSS },
    });
    expect(review.status).toBe(201);

    const ctx = await suite.browser.newContext();
    const page = await ctx.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    for (const [path, name] of [
      [`/m/${id}`, "xss-mission"],
      [`/u/${solver.address}`, "xss-agent"],
      ["/", "xss-board"],
      [`/m/${id}/receipts/${sub.body.id}`, "xss-receipt"],
    ] as const) {
      await page.goto(`${url}${path}`);
      await expectNoScriptRan(page, dialogs);
      await shot(page, name);
    }
    // The text is there, as text.
    await page.goto(`${url}/m/${id}`);
    expect(await page.locator("h1").first().textContent()).toContain("<script>");
    expect(await page.locator("pre.deliverable").textContent()).toContain("<img src=x onerror=");
    await page.goto(`${url}/u/${solver.address}`);
    expect(await page.locator(".review-text").first().textContent()).toBe(XSS);
    await expectAccessible(page);
    await shot(page, "agent");
    await ctx.close();
  });

  it("leaderboard, status and the interactive API reference render, accessibly, from local assets only", async () => {
    const { url } = suite.web;
    const ctx = await suite.browser.newContext();
    const page = await ctx.newPage();
    const foreign: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(url) && !r.url().startsWith("data:")) foreign.push(r.url());
    });
    for (const [path, name] of [
      ["/ranking", "leaderboard"],
      ["/status", "status"],
    ] as const) {
      await page.goto(`${url}${path}`);
      await expectAccessible(page);
      await shot(page, name);
    }
    await page.goto(`${url}/docs`);
    await page.locator(".swagger-ui .opblock").first().waitFor({ timeout: 20_000 });
    // Swagger UI renders the operations progressively: wait for them, not for the first one only.
    await expect.poll(() => page.locator(".swagger-ui .opblock").count(), { timeout: 20_000 }).toBeGreaterThan(20);
    // The reference comes in two parts (Swagger UI renders at most 128 operations per document).
    await page.selectOption("#api-part", "operator");
    await expect
      .poll(() => page.locator(".swagger-ui .opblock-summary-path").allInnerTexts(), { timeout: 20_000 })
      .toContain("/admin/audit");
    await shot(page, "docs");
    expect(foreign).toEqual([]);
    await ctx.close();
  });
});
