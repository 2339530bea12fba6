import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { base } from "viem/chains";
import {
  CLAIM_STATUSES,
  MISSION_PHASES,
  MISSION_STATUSES,
  PAYOUT_STATUSES,
  SUBMISSION_STATUSES,
  VERIFICATION_TYPES,
} from "../../src/db/vocabulary";
import { credit, missionBody, newAccount, signIn } from "../helpers/agents";
import { shot, walletContext } from "../helpers/browser";
import { useBrowserSuite } from "../helpers/browser-suite";

// The board on a 390 px phone, every page (docs/web.md "Words, people, phones", "Posting"): no base
// unit, snake_case word, wire enum value or ISO time in the visible text; the post form states the
// kept posting fee before the button, answers mistakes beside their fields with the numbers a
// person needs, and takes `25` as 25 USDC; the board's first mission card is on the first screen.

const suite = useBrowserSuite();

const PHONE = { width: 390, height: 844 };
const WIRE_WORDS = new Set<string>([
  ...MISSION_STATUSES,
  ...MISSION_PHASES,
  ...PAYOUT_STATUSES,
  ...SUBMISSION_STATUSES,
  ...CLAIM_STATUSES,
  ...VERIFICATION_TYPES,
]);

/**
 * What a person should never read: base units (7+ digits standing alone — not inside a hex
 * string), snake_case words, ISO timestamps, and a wire enum value shown as an element's whole text
 * (a status badge reading "escrowed").
 */
async function jargonIn(page: Page): Promise<string[]> {
  const text = (await page.evaluate("document.body.innerText")) as string;
  const leaves = (await page.evaluate(`[...document.body.querySelectorAll("*")]
    .filter((e) => e.children.length === 0 && e.checkVisibility())
    .map((e) => e.textContent.trim())`)) as string[];
  return [
    ...[...text.matchAll(/(?<![\w.,])\d{7,}(?![\w.,])/g)].map((m) => `base units? ${m[0]}`),
    ...[...text.matchAll(/\b[a-z][a-z0-9]*_[a-z0-9_]+\b/g)].map((m) => `snake_case ${m[0]}`),
    ...[...text.matchAll(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/g)].map((m) => `ISO time ${m[0]}`),
    ...leaves.filter((l) => WIRE_WORDS.has(l)).map((l) => `enum value ${l}`),
  ];
}

/** The element's box on the page (scrolled to the top), for "within the first screen". */
const box = async (page: Page, sel: string) => (await page.locator(sel).first().boundingBox())!;

describe("the board on a 390 px phone", { timeout: 240_000 }, () => {
  it("posting: the kept fee before the button, errors beside their fields, and 25 means 25 USDC", async () => {
    const { t, url } = suite.web;
    const account = newAccount();
    const address = account.address.toLowerCase();
    const ctx = await walletContext(suite.browser, { account, chain: base });
    const page = await ctx.newPage();
    await page.setViewportSize(PHONE);
    await page.goto(`${url}/me`);
    await page.getByRole("button", { name: "Sign in with Test Wallet" }).click();
    await page.getByRole("heading", { name: /Signed in as/ }).waitFor();
    await credit(t, address, 12_500_000n); // 12.5 USDC

    await page.goto(`${url}/post`);
    expect(await jargonIn(page)).toEqual([]);
    // Before posting: the fee, in whole units, and that it is kept — above the button.
    const cost = page.locator("#post-cost");
    expect(await cost.innerText()).toBe(
      "Posting costs the reward plus a 5 USDC posting fee, which keeps spam off the board. The posting fee is kept, even if you cancel the mission or nobody answers; the reward comes back to you then.",
    );
    expect((await box(page, "#post-cost")).y).toBeLessThan((await box(page, "#post-form button[type=submit]")).y);

    // Mistakes: no title and a reward in words.
    await page.getByLabel(/^Description/).fill("Three names for a bakery, each with one line on why.");
    await page.getByLabel(/^Reward amount/).fill("ten");
    await page.getByRole("button", { name: "Post mission" }).click();
    const titleError = page.locator("#err-title");
    await titleError.waitFor();
    expect(await titleError.innerText()).toBe("Give the mission a title: what needs doing, in one line.");
    expect(await page.locator("#err-amount").innerText()).toBe("Enter an amount in USDC like 50 or 12.5.");
    // Beside the field: in the field's own label, tied to the input; not under the button.
    expect(await page.getByLabel(/^Title/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel(/^Title/).getAttribute("aria-describedby")).toBe("err-title");
    expect(await page.locator("label:has(input[name=title]) #err-title").count()).toBe(1);
    const [titleBox, titleErr, button] = await Promise.all([
      box(page, "input[name=title]"),
      box(page, "#err-title"),
      box(page, "#post-form button[type=submit]"),
    ]);
    expect(titleErr.y).toBeGreaterThanOrEqual(titleBox.y + titleBox.height - 1);
    expect(titleErr.y).toBeLessThan(button.y);
    expect(await page.locator("#post-errors").innerText()).toBe(
      "Some fields need a fix; each one says what, beside it.",
    );
    expect(await page.locator("#action-status").innerText()).toBe("");
    await shot(page, "phone-post-errors-390");

    // Too little on the balance: what there is, and what the mission needs, reward and fee apart.
    await page.getByLabel(/^Title/).fill("Name our bakery");
    await page.getByLabel(/^Reward amount/).fill("100");
    expect(await cost.innerText()).toMatch(
      /^Posting takes 105 USDC: the 100 USDC reward and a 5 USDC posting fee, which keeps spam off the board\. The posting fee is kept/,
    );
    await page.getByRole("button", { name: "Post mission" }).click();
    await expect
      .poll(() => page.locator("#err-amount").innerText())
      .toBe(
        "Your balance is 12.5 USDC; this mission needs 105 USDC (100 USDC reward + 5 USDC posting fee). Add 92.5 USDC to your balance or lower the reward.",
      );
    expect(await page.locator("#err-title").isVisible()).toBe(false); // the fixed field's error is gone
    expect(await page.getByLabel(/^Reward amount/).getAttribute("aria-describedby")).toBe("post-cost err-amount");
    expect(await jargonIn(page)).toEqual([]);
    await shot(page, "phone-post-balance-390");

    // 25 is 25 USDC.
    await page.getByLabel(/^Reward amount/).fill("25");
    await credit(t, address, 20_000_000n);
    await page.getByRole("button", { name: "Post mission" }).click();
    await page.waitForURL(/\/m\/mis_/);
    const id = new URL(page.url()).pathname.split("/")[2]!;
    const posted = (await t.call("GET", `/missions/${id}`)).body;
    expect(posted.reward).toMatchObject({ asset: "USDC", amount: "25000000" });
    expect(await page.locator(".reward.big").innerText()).toBe("25 USDC");
    // 12.5 + 20 − 25 − 5.
    const bal = (await t.call("GET", `/agents/${address}/balance`)).body.balances[0];
    expect(bal.available).toBe("2500000");
    expect(await jargonIn(page)).toEqual([]);
    await ctx.close();
  });

  it("every page — board, mission, agent, ranking, status, me, post — reads in words; the board leads with missions", async () => {
    const { t, url } = suite.web;
    // A decided mission (a ranked solver, a receipt) and an open one with a submission.
    const creator = await signIn(t);
    const solver = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const done = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { title: "Write a haiku about escrow", reward: { asset: "USDC", amount: "40000000" } }),
    });
    const sub = await t.call("POST", `/missions/${done.body.id}/submissions`, {
      token: solver.token,
      body: { content: "Held in trust, the coin / waits for the work to be done / then it flows onward" },
    });
    expect(sub.status).toBe(201);
    const award = await t.call("POST", `/missions/${done.body.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: sub.body.id }] },
    });
    expect(award.status).toBe(200);
    const open = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { title: "Summarise the changelog", tags: ["writing", "docs"] }),
    });
    await t.call("POST", `/missions/${open.body.id}/submissions`, {
      token: solver.token,
      body: { content: "The release adds phones." },
    });

    const account = newAccount();
    const ctx = await walletContext(suite.browser, { account, chain: base });
    const page = await ctx.newPage();
    await page.setViewportSize(PHONE);

    // The board: the first mission card on the first screen, the filters folded.
    await page.goto(`${url}/`);
    const first = await box(page, "ul.missions > li h2");
    expect(first.y + first.height).toBeLessThanOrEqual(PHONE.height);
    expect(await page.locator("details.filters-box").getAttribute("open")).toBeNull();
    expect(await page.getByLabel("Search").isVisible()).toBe(false);
    await shot(page, "phone-board-390");
    // "all" is All; another value is answered with the choices, in words, beside the field.
    const all = await page.goto(`${url}/?status=all`);
    expect(all?.status()).toBe(200);
    expect(await page.getByLabel("Status").locator("option:checked").innerText()).toBe("All");
    expect(await page.locator("ul.missions > li").filter({ hasText: "Write a haiku about escrow" }).count()).toBe(1);
    const wrong = await page.goto(`${url}/?status=finished`);
    expect(wrong?.status()).toBe(400);
    expect(await page.locator("details.filters-box").getAttribute("open")).not.toBeNull();
    expect(await page.locator("#err-status").innerText()).toBe(
      "Status: “finished” is not one of the choices; choose Open, Being judged, Awarded, Cancelled or All.",
    );
    expect(await page.getByLabel("Status").getAttribute("aria-describedby")).toBe("err-status");

    const pages: [string, string][] = [
      ["/", "board"],
      ["/?status=all", "board-all"],
      [`/m/${open.body.id}`, "mission-open"],
      [`/m/${done.body.id}`, "mission-decided"],
      [`/m/${done.body.id}/receipts/${sub.body.id}`, "receipt"],
      [`/u/${solver.address}`, "agent"],
      [`/u/${creator.address}`, "agent-creator"],
      ["/ranking", "ranking"],
      ["/status", "status"],
      ["/post", "post"],
      ["/me", "sign-in"],
    ];
    const found: Record<string, string[]> = {};
    const walk = async (list: [string, string][]) => {
      for (const [path, name] of list) {
        await page.goto(`${url}${path}`);
        const j = await jargonIn(page);
        if (j.length) found[path] = j;
        await shot(page, `phone-${name}-390`);
      }
    };
    await walk(pages);
    // Signed in: the account page with balances, missions and submissions, and the pages again.
    await page.goto(`${url}/me`);
    await page.getByRole("button", { name: "Sign in with Test Wallet" }).click();
    await page.getByRole("heading", { name: /Signed in as/ }).waitFor();
    await credit(t, account.address, 7_250_000n);
    await walk([
      ["/me", "me"],
      [`/m/${open.body.id}`, "mission-signed-in"],
      ["/post", "post-signed-in"],
    ]);
    expect(found).toEqual({});
    // The scan sees what it looks for: the same page with jargon put in it.
    await page.evaluate(`document.querySelector("main").insertAdjacentHTML("beforeend",
      "<p>pending_escrow 25000000 2026-12-03T14:00:00Z</p><p><span>escrowed</span></p>")`);
    expect(await jargonIn(page)).toEqual([
      "base units? 25000000",
      "snake_case pending_escrow",
      "ISO time 2026-12-03T14:00",
      "enum value escrowed",
    ]);

    // The answer form too: an empty answer is told beside the answer field, then an answer goes in.
    await page.goto(`${url}/m/${open.body.id}`);
    await page.locator("#submit-form button[type=submit]").click();
    await expect
      .poll(() => page.locator("#err-submit-content").innerText())
      .toBe("Write an answer here, or give a link and choose its file below.");
    expect(await page.getByLabel(/^Answer/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#submit-form .form-error").innerText()).toBe(
      "Some fields need a fix; each one says what, beside it.",
    );
    await page.getByLabel(/^Answer/).fill("Phones now lead with missions.");
    await page.locator("#submit-form button[type=submit]").click();
    await expect.poll(() => page.locator("#subs-h").textContent()).toBe("Submissions (2)");

    // The content hash: labelled, spelt as receipts spell it.
    await page.goto(`${url}/m/${open.body.id}`);
    const hash = page.locator(".content-hash").first();
    expect((await hash.innerText()).replace(/\s+/g, " ")).toMatch(/^Fingerprint sha256:[0-9a-f]{6}…[0-9a-f]{6} Copy$/);
    expect(await hash.locator("button").getAttribute("data-copy")).toMatch(/^sha256:[0-9a-f]{64}$/);
    await page.goto(`${url}/me`);
    expect(await page.locator("#balances").innerText()).toBe("7.25 USDC");
    await ctx.close();
  });
});
