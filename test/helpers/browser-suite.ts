import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser, startWebServer, type WebServer } from "./browser";

/**
 * Headless Chromium and a web server (helpers/browser.ts) for one test file: started before its
 * tests (in parallel, a slow start allowed), closed after. Read `browser` and `web` inside tests.
 */
export function useBrowserSuite(env: Record<string, string> = {}): { browser: Browser; web: WebServer } {
  const suite = {} as { browser: Browser; web: WebServer };
  beforeAll(async () => {
    [suite.browser, suite.web] = await Promise.all([launchBrowser(), startWebServer(env)]);
  }, 120_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.web?.close();
  });
  return suite;
}
