import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { readsInFlight } from "../../src/http/read-limits";
import type { AppEnv } from "../../src/http/types";

// docs/abuse-edge.md "Read limits": a caller's reads beyond its running share wait for its own to
// end, in order, never in front of another caller; past its admitted reads, 429 at once; static
// assets are not counted.
describe("reads in flight: a caller's burst queues behind itself", () => {
  it("runs 1 of 3 admitted, queues 2 in order, refuses the 4th, serves another caller and assets", async () => {
    const gates = new Map<string, () => void>();
    const started: string[] = [];
    const app = new Hono<AppEnv>();
    app.use("*", readsInFlight({ perCaller: 3, runningPerCaller: 1 }));
    app.get("/slow/:n", async (c) => {
      const n = c.req.param("n");
      started.push(n);
      await new Promise<void>((r) => gates.set(n, r));
      return c.text(n);
    });
    app.get("/assets/x.css", (c) => c.text("css"));
    const as = (who: string) => ({ headers: { authorization: `Bearer ${who}` } });
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setImmediate(r));
      expect(ok()).toBe(true);
    };

    const a = ["1", "2", "3"].map((n) => app.request(`/slow/${n}`, as("a")));
    await until(() => started.includes("1"));
    const refused = await app.request("/slow/9", as("a"));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      error: "RATE_LIMITED",
      details: { reason: "reads_in_flight", limit: 3 },
    });
    expect((await app.request("/assets/x.css", as("a"))).status).toBe(200);
    // Another caller runs at once while a's two wait.
    const b = app.request("/slow/4", as("b"));
    await until(() => started.includes("4"));
    expect(started).toEqual(["1", "4"]);
    gates.get("4")!();
    expect(await (await b).text()).toBe("4");
    // a's turn is handed on in order, one at a time.
    gates.get("1")!();
    await until(() => started.includes("2"));
    expect(started).toEqual(["1", "4", "2"]);
    gates.get("2")!();
    await until(() => started.includes("3"));
    gates.get("3")!();
    expect(await Promise.all(a.map(async (r) => (await r).text()))).toEqual(["1", "2", "3"]);
    // All ended: a has its full share again.
    const again = app.request("/slow/5", as("a"));
    await until(() => started.includes("5"));
    gates.get("5")!();
    expect((await again).status).toBe(200);
  });
});
