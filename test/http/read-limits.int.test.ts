import { describe, expect, it } from "vitest";
import { closeEventStreams } from "../../src/features/events";
import { hubOf } from "../../src/features/events/events.hub";
import { signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// docs/abuse-edge.md "Read limits": reads per caller (agent, else client network) in tokens and in
// flight, per instance; the event stream is not a read (it holds a connection slot instead).

const t = useTestApp(
  { OABP_TRUST_PROXY: "true", OABP_RATE_LIMIT_READ: "5/60", OABP_READ_INFLIGHT_PER_CALLER: "2" },
  { limits: { eventsPollMs: 50 } },
);
const from = (ip: string) => ({ "x-forwarded-for": ip });

describe("read limits", () => {
  it("tokens per client network: 5 reads, then 429 with Retry-After; another network and time refill", async () => {
    for (let i = 0; i < 5; i++)
      expect((await t.call("GET", "/missions", { headers: from(`2001:db8:5:5::${i + 1}`) })).status).toBe(200);
    const refused = await t.call("GET", "/missions", { headers: from("2001:db8:5:5::99") });
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("12");
    expect(refused.body.details).toMatchObject({ policy: "read", retry_after_seconds: 12 });
    expect((await t.call("GET", "/missions", { headers: from("2001:db8:5:6::1") })).status).toBe(200);
    t.clock.advance(12_000);
    expect((await t.call("GET", "/missions", { headers: from("2001:db8:5:5::1") })).status).toBe(200);
    // The event stream is not counted as a read.
    const stream = await t.app.request("/events", { headers: from("2001:db8:5:5::1") });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
  });

  it("inbox long polls are not reads in flight: two wait, and the agent still reads past its 2 in flight", async () => {
    // They hold the agent's long-lived connection slots instead (test/events/events-longpoll-reads);
    // the refusal past the in-flight reads is test/http/reads-fair.test.ts.
    const a = await signIn(t);
    const auth = { authorization: `Bearer ${a.token}`, ...from("198.51.100.77") };
    const waiting = [1, 2].map(() => t.app.request("/agents/me/inbox?wait=20", { headers: auth }));
    for (let i = 0; i < 2000 && hubOf(t.deps).openConnections < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(hubOf(t.deps).openConnections).toBe(2);
    t.clock.advance(60_000); // tokens are not what is tested here
    expect((await t.call("GET", "/agents/me/inbox?wait=0", { headers: auth })).status).toBe(200);
    closeEventStreams(t.deps);
    for (const r of await Promise.all(waiting)) expect(r.status).toBe(200);
  });

  it("adp.discover and adp.describe are reads: the read tokens, not the write bucket", async () => {
    const net = (i: number) => from(`2001:db8:7:7::${i}`); // one /64: one caller, 5 read tokens
    for (let i = 0; i < 3; i++) {
      const r = await t.call("POST", "/adp/adp.discover", { headers: net(i + 1), body: { tags: ["nlp"] } });
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get("ratelimit-policy")).toBeNull(); // no write bucket was charged
    }
    for (let i = 0; i < 2; i++)
      expect((await t.call("POST", "/adp/adp.describe", { headers: net(9), body: {} })).status).toBe(200);
    // 3 discovers + 2 describes took the 5 tokens: the sixth read is refused.
    const refused = await t.call("POST", "/api/adp/adp.discover", { headers: net(1), body: { query: "translate" } });
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.body.details).toMatchObject({ policy: "read" });
    // An advertise is a write: not a read token.
    const adv = await t.call("POST", "/adp/adp.advertise", { headers: net(1), body: {} });
    expect(adv.status).not.toBe(429);
    t.clock.advance(60_000);
  });
});
