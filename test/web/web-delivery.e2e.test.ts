import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { base } from "viem/chains";
import { newAccount, openMission } from "../helpers/agents";
import { shot, walletContext } from "../helpers/browser";
import { useBrowserSuite } from "../helpers/browser-suite";

// docs/web.md "Delivery" in headless Chromium: a first load asks for nothing that is missing
// (favicon included), arrives compressed, runs the small page script and fetches the signing
// chunk only where a wallet signs; copy buttons copy; /docs fits a phone.

const suite = useBrowserSuite();

/** Every response of a page's load, by URL path, with its status and content-encoding. */
function recordResponses(page: Page) {
  const seen: { path: string; status: number; encoding: string | undefined }[] = [];
  page.on("response", (r) => {
    const u = new URL(r.url());
    seen.push({ path: u.pathname, status: r.status(), encoding: r.headers()["content-encoding"] });
  });
  return seen;
}

describe("delivery in Chromium", { timeout: 120_000 }, () => {
  it("first load: no 404 (favicon included), HTML and script compressed, no signing chunk on the board or a mission", async () => {
    const { url, t } = suite.web;
    const { mission } = await openMission(t, { description: "word ".repeat(400) });
    const ctx = await suite.browser.newContext();
    const page = await ctx.newPage();
    const seen = recordResponses(page);
    for (const path of ["/", `/m/${mission.id}`]) {
      await page.goto(`${url}${path}`);
      await page.waitForLoadState("networkidle");
    }
    await expect
      .poll(() => seen.some((s) => s.path === "/favicon.ico" || s.path.startsWith("/assets/icon-")))
      .toBe(true);
    expect(seen.filter((s) => s.status >= 400)).toEqual([]);
    const doc = seen.find((s) => s.path === `/m/${mission.id}`)!;
    expect(doc.encoding).toBe("br");
    const script = seen.find((s) => s.path.startsWith("/assets/js/app-"))!;
    expect(script.status).toBe(200);
    expect(seen.some((s) => s.path.startsWith("/assets/js/wallet-"))).toBe(false);
    await ctx.close();
  });

  it("/me loads the signing chunk and offers the wallet; the mission page's copy and sign-in work without it", async () => {
    const { url } = suite.web;
    const ctx = await walletContext(suite.browser, { account: newAccount(), chain: base });
    const page = await ctx.newPage();
    const seen = recordResponses(page);
    await page.goto(`${url}/me`);
    await page.getByRole("button", { name: "Sign in with Test Wallet" }).waitFor();
    expect(seen.some((s) => s.path.startsWith("/assets/js/wallet-") && s.status === 200)).toBe(true);
    await ctx.close();
  });

  it("a data-copy button copies its text and says so", async () => {
    const { url } = suite.web;
    const ctx = await suite.browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    const page = await ctx.newPage();
    await page.goto(`${url}/docs`);
    const button = page.locator("button[data-copy]").first();
    const text = await button.getAttribute("data-copy");
    expect(text).toContain("/mcp");
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Copied");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(text);
    await ctx.close();
  });

  it("/docs fits a 360 px phone: no sideways scrolling once Swagger UI has rendered", async () => {
    const { url } = suite.web;
    const ctx = await suite.browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await ctx.newPage();
    await page.goto(`${url}/docs`);
    await expect.poll(() => page.locator(".swagger-ui .opblock").count(), { timeout: 30_000 }).toBeGreaterThan(20);
    await shot(page, "docs-phone");
    const width = await page.evaluate("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(360);
    await ctx.close();
  });
});
