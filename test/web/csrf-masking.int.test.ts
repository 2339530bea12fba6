import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfTokenFor, sessionCookieName } from "../../src/http/session-cookie";
import { makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";

// No secret beside reflected text in a compressed body (docs/decisions.md "CSRF token masked per
// response"): a page compresses the viewer's CSRF token together with the `?q=` it reflects, so
// the token is masked with a fresh pad on every response. A BREACH-style size oracle — the
// compressed length of `/?q=<guess>` for true windows of the token against wrong ones — then
// finds no signal, and every masked token still validates.

let t: TestApp;
let session: Awaited<ReturnType<typeof signIn>>;
let cookie: string;
beforeAll(async () => {
  t = await makeTestApp();
  session = await signIn(t);
  cookie = `${sessionCookieName(false)}=${session.token}`;
  await credit(t, session.address, 1_000_000_000n);
});
afterAll(async () => t?.close());

const tokenOf = (html: string) => /<meta name="oabp-csrf" content="([^"]+)"/.exec(html)?.[1];
/** The page as the server sends it to this viewer: brotli, as a browser asks. */
async function page(path: string) {
  const res = await t.app.request(path, { headers: { cookie, accept: "text/html", "accept-encoding": "br" } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-encoding")).toBe("br");
  return new Uint8Array(await res.arrayBuffer());
}

describe("the CSRF token in pages", () => {
  it("differs on every response and every one of them validates", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await t.call("GET", "/me", { headers: { cookie, accept: "text/html" } });
      const token = tokenOf(r.text)!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{100,}$/);
      expect(r.text).not.toContain(csrfTokenFor(session.token));
      seen.add(token);
      const write = await t.call("POST", "/missions", {
        headers: { cookie, "x-csrf-token": token },
        body: missionBody(t, { title: `From page ${i}` }),
      });
      expect(write.status, write.text).toBe(201);
    }
    expect(seen.size).toBe(5);
    // A masked token of another session, or a tampered one, does not validate.
    const other = await signIn(t);
    const foreign = tokenOf(
      (
        await t.call("GET", "/me", {
          headers: { cookie: `${sessionCookieName(false)}=${other.token}`, accept: "text/html" },
        })
      ).text,
    )!;
    const flipped = [...seen][0]!.slice(0, -2) + ([...seen][0]!.endsWith("AA") ? "AB" : "AA");
    for (const bad of [foreign, flipped]) {
      const r = await t.call("POST", "/missions", { headers: { cookie, "x-csrf-token": bad }, body: missionBody(t) });
      expect(r.status).toBe(403);
      expect(r.body.details.reason).toBe("csrf_token_missing_or_wrong");
    }
  });

  it("a size oracle on `/?q=<guess>` finds no signal: true windows of the token compress no smaller than wrong ones", async () => {
    const secret = csrfTokenFor(session.token);
    const TRIALS = 40;
    let trueSmaller = 0;
    let wrongSmaller = 0;
    for (let i = 0; i < TRIALS; i++) {
      const at = (i * 7) % (secret.length - 8);
      const right = secret.slice(at, at + 8);
      let wrong = randomBytes(4).toString("hex");
      if (secret.includes(wrong)) wrong = "00000000";
      const [a, b] = [await page(`/?q=${right}`), await page(`/?q=${wrong}`)];
      if (a.byteLength < b.byteLength) trueSmaller++;
      if (b.byteLength < a.byteLength) wrongSmaller++;
    }
    // With the raw token in the page, a true window compresses smaller nearly every time (39 of
    // 40 measured: the attack's signal); masked, the two are as likely either way. The bound leaves a one in a
    // thousand chance for honest noise to fail it (binomial, p = 1/2).
    expect(trueSmaller).toBeLessThanOrEqual(wrongSmaller + 20);
    expect(trueSmaller).toBeLessThan(31);
  });
});
