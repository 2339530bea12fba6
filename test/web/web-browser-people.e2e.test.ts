import { describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { base } from "viem/chains";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { exactTime } from "../../src/features/web/web.format";
import { credit, newAccount, signIn } from "../helpers/agents";
import { axeViolations, shot, walletContext } from "../helpers/browser";
import { useBrowserSuite } from "../helpers/browser-suite";

// The board as a product for people (docs/web.md "Words", "Phones"): a person who never read the
// protocol posts a mission, judges it and sees when it pays — every visible word checked for base
// units, snake_case and ISO timestamps; only the actions the caller can take are offered; and no
// page scrolls sideways on a phone (360 and 390 px wide) or on a desktop.

// Production's default: creator_judges awards are disputable (an hour here, so sessions outlive it).
const suite = useBrowserSuite({ OABP_APPEAL_DEFAULT: "on", OABP_APPEAL_WINDOW_SECONDS: "3600" });

const VIEWPORTS = [
  { name: "phone-360", width: 360, height: 740 },
  { name: "phone-390", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

/** What a person should never have to read: base units, wire words, machine timestamps. */
async function jargonIn(page: Page): Promise<string[]> {
  const text = (await page.evaluate("document.body.innerText")) as string;
  return [
    ...[...text.matchAll(/(?<![\d.,])\d{7,}(?![\d.,])/g)].map((m) => `long digit string ${m[0]}`),
    ...[...text.matchAll(/\b[a-z][a-z0-9]*_[a-z0-9_]+\b/g)].map((m) => `snake_case ${m[0]}`),
    ...[...text.matchAll(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/g)].map((m) => `ISO time ${m[0]}`),
  ];
}

/** scrollWidth <= innerWidth: nothing sticks out sideways. */
async function sidewaysOverflow(page: Page): Promise<{ scroll: number; width: number; culprits: string[] }> {
  return page.evaluate(`(() => {
    const width = window.innerWidth;
    const culprits = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((e) => e.tagName.toLowerCase() + "." + e.className);
    return { scroll: document.documentElement.scrollWidth, width, culprits };
  })()`);
}

async function signInWith(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/me`);
  await page.getByRole("button", { name: "Sign in with Test Wallet" }).click();
  await page.getByRole("heading", { name: /Signed in as/ }).waitFor();
}

async function wallet(width = 1280, height = 900): Promise<{ ctx: BrowserContext; page: Page; address: string }> {
  const account = newAccount();
  const ctx = await walletContext(suite.browser, { account, chain: base });
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height });
  return { ctx, page, address: account.address.toLowerCase() };
}

describe("the board for people", { timeout: 180_000 }, () => {
  let missionId = "";
  let winnerSubmission = "";
  let creatorAddress = "";

  it("a newcomer posts a mission, picks the winner and sees when it pays, in plain words only", async () => {
    const { t, url } = suite.web;
    const alice = await wallet(390, 844); // on a phone
    creatorAddress = alice.address;
    const carol = await wallet();
    await signInWith(alice.page, url);
    await credit(t, alice.address, 100_000_000n);

    await alice.page.goto(`${url}/post`);
    expect(await jargonIn(alice.page)).toEqual([]);
    // The appeal choice, in words: the default lets others dispute for the configured hour.
    expect(await alice.page.getByLabel("After you pick").locator("option").allTextContents()).toEqual([
      "Others may dispute it for 1 hour, then it pays (recommended)",
      "My pick is final and pays at once",
    ]);
    await alice.page.getByLabel("Title").fill("Name our new coffee blend");
    await alice.page.getByLabel(/^Description/).fill("A short, **warm** name. Tell us why in one line.");
    await alice.page.getByLabel(/^Reward amount/).fill("40");
    await alice.page.getByLabel(/^Tags/).fill("naming, coffee");
    // The judging window: the board's own first, others in words (judging_window_seconds).
    const window = alice.page.getByLabel(/^Time you have to pick/);
    expect((await window.locator("option").allTextContents()).slice(0, 3)).toEqual(["7 days", "1 day", "3 days"]);
    await window.selectOption({ label: "3 days" });
    await shot(alice.page, "people-post-390");
    await alice.page.getByRole("button", { name: "Post mission" }).click();
    await alice.page.waitForURL(/\/m\/mis_/);
    missionId = new URL(alice.page.url()).pathname.split("/")[2]!;
    const posted = (await t.call("GET", `/missions/${missionId}`)).body;
    expect(posted.reward).toMatchObject({ amount: "40000000", asset: "USDC" });
    expect(posted.verification.params.appeal).toMatchObject({ appeal_window_seconds: 3600 });
    expect(posted.verification.params.judging_window_seconds).toBe(3 * 86_400);
    expect(await alice.page.getByText("within 3 days of the deadline").count()).toBe(1);
    // The reward in whole units with its symbol; the creator of a fresh mission may cancel it.
    expect(await alice.page.locator(".reward.big").textContent()).toBe("40 USDC");
    expect(await alice.page.getByRole("button", { name: /Cancel mission/ }).count()).toBe(1);
    expect(await jargonIn(alice.page)).toEqual([]);

    // Two answers: one through the API, one from Carol's browser.
    const bob = await signIn(t);
    const sb = await t.call("POST", `/missions/${missionId}/submissions`, {
      token: bob.token,
      body: { content: "Ember Morning: it glows like the first cup." },
    });
    expect(sb.status).toBe(201);
    winnerSubmission = sb.body.id;
    await signInWith(carol.page, url);
    await credit(t, carol.address, 10_000_000n);
    await carol.page.goto(`${url}/m/${missionId}`);
    await carol.page.getByLabel(/^Answer/).fill("Velvet Dusk, because it is smooth and dark.");
    await carol.page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => carol.page.locator("#subs-h").textContent()).toBe("Submissions (2)");
    // A solver sees no judging and no cancelling.
    expect(await carol.page.locator("#award-btn, #void-btn, .award-pick").count()).toBe(0);

    // Judging: with answers in, cancelling is refused by the API's rule, so it is not offered.
    await alice.page.reload();
    expect(await alice.page.locator("#void-btn").count()).toBe(0);
    expect(await alice.page.locator(".facts").first().innerText()).toContain("2 submissions");
    await alice.page.locator(`.award-pick[value="${winnerSubmission}"]`).check();
    await shot(alice.page, "people-judge-390");
    await alice.page.getByRole("button", { name: "Award selected submissions" }).click();
    await alice.page.locator("#pays-on").waitFor();
    const awarded = (await t.call("GET", `/missions/${missionId}`)).body;
    expect(awarded).toMatchObject({ status: "escrowed", phase: "appeal" });
    const paysOn = exactTime(new Date(awarded.award.appeal_deadline), { short: true });
    expect(await alice.page.locator("#pays-on").textContent()).toBe(`Pays on ${paysOn} unless disputed`);
    // The exact time on hover, the machine time in datetime; the text is relative.
    const when = alice.page.locator("#next time").last();
    expect(await when.getAttribute("datetime")).toBe(awarded.award.appeal_deadline);
    expect(await when.textContent()).toBe("in 1 hour");
    // The creator cannot dispute their own pick: no dispute action for them.
    expect(await alice.page.locator("#dispute-form").count()).toBe(0);
    expect(await jargonIn(alice.page)).toEqual([]);
    expect(await axeViolations(alice.page)).toEqual([]);
    await shot(alice.page, "people-awarded-390");

    // Carol may dispute (another answer should have won) — not her own answer, not Bob's pick.
    await carol.page.reload();
    const options = await carol.page.locator("#dispute-form select option").count();
    expect(options).toBe(0); // her own answer is the only other one: nothing she may name
    expect(await carol.page.locator("#dispute-form").count()).toBe(0);

    // The anonymous reader and the board: words only.
    const anon = await suite.browser.newContext();
    const ap = await anon.newPage();
    await ap.goto(`${url}/m/${missionId}`);
    expect(await ap.locator("#dispute-form, #award-btn, #void-btn").count()).toBe(0);
    expect(await jargonIn(ap)).toEqual([]);
    await ap.goto(`${url}/?status=any`);
    expect(await jargonIn(ap)).toEqual([]);

    // The window closes undisputed: it pays, and the page says so.
    t.clock.set(new Date(awarded.award.appeal_deadline));
    await sweepDueMissions(t.deps);
    await alice.page.reload();
    await expect.poll(() => alice.page.locator("#payout-words").textContent()).toBe("paid");
    expect(await alice.page.locator("#next").innerText()).toContain("the creator picked the winner");
    expect(await alice.page.locator("#next").innerText()).not.toMatch(/ in \d/); // no countdown once decided
    expect(await jargonIn(alice.page)).toEqual([]);
    await shot(alice.page, "people-paid-390");
    await Promise.all([alice.ctx.close(), carol.ctx.close(), anon.close()]);
  });

  it("a bystander may dispute an award: the action is theirs alone, with the stake in whole units", async () => {
    const { t, url } = suite.web;
    const creator = await signIn(t);
    await credit(t, creator.address, 100_000_000n);
    const m = await t.call("POST", "/missions", {
      token: creator.token,
      body: {
        title: "Pick the best slogan",
        description: "One line.",
        reward: { asset: "USDC", amount: "20000000" },
        verification: { type: "creator_judges", params: {} },
        deadline: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
        tags: ["slogan"],
      },
    });
    expect(m.status).toBe(201);
    const [s1, s2] = [await signIn(t), await signIn(t)];
    const a1 = await t.call("POST", `/missions/${m.body.id}/submissions`, {
      token: s1.token,
      body: { content: "One" },
    });
    const a2 = await t.call("POST", `/missions/${m.body.id}/submissions`, {
      token: s2.token,
      body: { content: "Two" },
    });
    const award = await t.call("POST", `/missions/${m.body.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: a1.body.id }] },
    });
    expect(award.status).toBe(200);
    const eve = await wallet(360, 740);
    await signInWith(eve.page, url);
    await credit(t, eve.address, 5_000_000n);
    await eve.page.goto(`${url}/m/${m.body.id}`);
    const form = eve.page.locator("#dispute-form");
    expect(await form.count()).toBe(1);
    expect(await form.locator("select option").evaluateAll((os) => os.map((o) => o.getAttribute("value")))).toEqual([
      a2.body.id,
    ]);
    expect(await form.innerText()).toContain("at least 0.2 USDC");
    expect(await jargonIn(eve.page)).toEqual([]);
    await shot(eve.page, "people-dispute-360");
    // A stake above the balance is told beside the stake, with both numbers in whole units.
    await eve.page.getByLabel(/^Your stake/).fill("100");
    await eve.page.getByRole("button", { name: "Dispute the pick" }).click();
    await expect
      .poll(() => eve.page.locator("#err-dispute-amount").innerText())
      .toBe("Your balance is 5 USDC; this stake needs 100 USDC.");
    expect(await eve.page.getByLabel(/^Your stake/).getAttribute("aria-invalid")).toBe("true");
    expect(await eve.page.locator("#action-status").innerText()).toBe("");
    await eve.page.getByLabel(/^Your stake/).fill("0.5");
    await eve.page.getByRole("button", { name: "Dispute the pick" }).click();
    await expect
      .poll(async () => (await t.call("GET", `/missions/${m.body.id}/votes`)).body?.votes?.length ?? 0)
      .toBe(1);
    const votes = (await t.call("GET", `/missions/${m.body.id}/votes`)).body.votes;
    expect(votes[0]).toMatchObject({ submission_id: a2.body.id, amount: "500000" });
    await eve.ctx.close();
  });

  it("every page fits a phone (360 and 390 px) and a desktop: no sideways scroll; screenshots of each", async () => {
    const { t, url } = suite.web;
    expect(missionId).not.toBe("");
    const solver = await signIn(t);
    await t.call("PUT", `/agents/${solver.address}`, {
      token: solver.token,
      body: { display_name: "A solver with a rather long display name" },
    });
    const paths: [string, string][] = [
      ["/", "board"],
      ["/?min_reward=abc", "board-error"],
      ["/?status=any&sort=reward", "board-all"],
      [`/m/${missionId}`, "mission"],
      [`/m/${missionId}/receipts/${winnerSubmission}`, "receipt"],
      [`/u/${creatorAddress}`, "agent"],
      [`/u/${solver.address}`, "agent-named"],
      ["/ranking", "ranking"],
      ["/status", "status"],
      ["/post", "post"],
      ["/me", "sign-in"],
    ];
    const ctx = await suite.browser.newContext();
    const page = await ctx.newPage();
    const overflows: unknown[] = [];
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      for (const [path, name] of paths) {
        await page.goto(`${url}${path}`);
        const o = await sidewaysOverflow(page);
        if (o.scroll > o.width) overflows.push({ path, vp: vp.name, ...o });
        await shot(page, `fit-${name}-${vp.name}`);
      }
    }
    // Signed in, with the wallet actions on the page.
    const w = await wallet();
    await signInWith(w.page, url);
    for (const vp of VIEWPORTS) {
      await w.page.setViewportSize({ width: vp.width, height: vp.height });
      for (const [path, name] of [
        ["/me", "me"],
        [`/m/${missionId}`, "mission-signed-in"],
      ] as const) {
        await w.page.goto(`${url}${path}`);
        const o = await sidewaysOverflow(w.page);
        if (o.scroll > o.width) overflows.push({ path, vp: vp.name, ...o });
        await shot(w.page, `fit-${name}-${vp.name}`);
      }
    }
    expect(overflows).toEqual([]);
    await Promise.all([ctx.close(), w.ctx.close()]);
  });

  it("the board sells the work: reward first, snippet, tags, deadline, submissions, people and the open total", async () => {
    const { t, url } = suite.web;
    const creator = await signIn(t);
    await t.call("PUT", `/agents/${creator.address}`, { token: creator.token, body: { display_name: "Ada" } });
    await credit(t, creator.address, 1_000_000_000n);
    const r = await t.call("POST", "/missions", {
      token: creator.token,
      body: {
        title: "Translate the onboarding guide",
        description: "## Scope\n\nTranslate **all** of [the guide](https://example.com/guide) into Dutch.",
        reward: { asset: "USDC", amount: "125500000" },
        verification: { type: "creator_judges", params: {} },
        deadline: new Date(t.clock.now().getTime() + 3 * 86_400_000 + 60_000).toISOString(),
        tags: ["translation", "dutch"],
      },
    });
    expect(r.status).toBe(201);
    const ctx = await suite.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await page.goto(`${url}/?tag=dutch`);
    const card = page.locator("ul.missions > li").first();
    expect(await card.locator(".reward").textContent()).toBe("125.5 USDC");
    expect(await card.locator(".snippet").textContent()).toBe("Scope Translate all of the guide into Dutch.");
    expect(await card.locator(".tag").allTextContents()).toEqual(["translation", "dutch"]);
    expect(await card.locator("time").textContent()).toBe("in 3 days");
    expect(await card.locator("time").getAttribute("title")).toMatch(/^\w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC$/);
    expect(await card.innerText()).toContain("0 submissions");
    expect(await card.locator(".person").innerText()).toBe("Ada");
    expect(await card.locator(".person svg").getAttribute("aria-hidden")).toBe("true");
    // The open total, per asset, in whole units.
    const all = (await t.call("GET", "/missions?status=open&limit=100")).body.missions as {
      reward: { amount: string };
    }[];
    expect(all.length).toBeLessThan(100);
    expect(await page.locator(".summary").innerText()).toMatch(new RegExp(`^${all.length} open missions? · `));
    // Browse by reward range in whole units; a mistyped amount gets a sentence, not a 400 about uint256.
    await page.goto(`${url}/?tag=dutch&min_reward=125&max_reward=126`);
    expect(await page.locator("ul.missions > li").count()).toBe(1);
    await page.goto(`${url}/?tag=dutch&min_reward=126`);
    expect(await page.locator("ul.missions > li").count()).toBe(0);
    const bad = await page.goto(`${url}/?min_reward=fifty`);
    expect(bad?.status()).toBe(400);
    expect(await page.getByRole("alert").innerText()).toContain("Enter an amount in USDC like 50 or 12.5.");
    expect(await page.getByLabel("Reward from").getAttribute("aria-invalid")).toBe("true");
    expect(await jargonIn(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, "people-board-error-390");
    // Deadline windows and sort, in words.
    await page.goto(`${url}/?tag=dutch&due=1d`);
    expect(await page.locator("ul.missions > li").count()).toBe(0);
    await page.goto(`${url}/?tag=dutch&due=7d&sort=reward`);
    expect(await page.locator("ul.missions > li").count()).toBe(1);
    expect(await page.getByLabel("Sort").locator("option:checked").textContent()).toBe("Biggest reward");
    // og:description is plain text.
    await page.goto(`${url}/m/${r.body.id}`);
    const og = await page.locator('meta[property="og:description"]').getAttribute("content");
    expect(og).toContain("Scope Translate all of the guide into Dutch.");
    expect(og).not.toMatch(/[*#[\]]/);
    expect(await page.title()).toBe("Translate the onboarding guide · Open Bounty Board");
    await ctx.close();
  });
});
