import { describe, expect, it } from "vitest";
import { closeEventStreams } from "../../src/features/events";
import { hubOf } from "../../src/features/events/events.hub";
import { signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// docs/events.md "Connection slots": streams and inbox long polls are counted
// together per client network and per agent, under a global cap that keeps a reserve for new
// clients — so 1,000 of them from one address, one /64 or 50 addresses leave an honest
// `GET /events` served. Defaults: 1000 slots, 20 per network, 4 per agent, 100 (a tenth) in reserve;
// anonymous streams in their own pool of 500 (test/events/events-party-share.int.test.ts: the
// parties' share).
// Requests come through the trusted-proxy path (X-Forwarded-For).

const t = useTestApp(
  { OABP_TRUST_PROXY: "true", OABP_INBOX_MAX_WAIT_SECONDS: "120" },
  { limits: { eventsPollMs: 50 } },
);

const from = (ip: string, token?: string) => ({
  "x-forwarded-for": ip,
  ...(token && { authorization: `Bearer ${token}` }),
});
const open = () => hubOf(t.deps).openConnections;

/** Polls `cond` (no fixed sleep), failing after a generous bound. */
async function until(cond: () => boolean, what: string) {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond(), what).toBe(true);
}

interface Load {
  streams: Response[];
  refused: Map<number, number>;
  polls: Promise<Response>[];
}

async function stream(load: Load, ip: string) {
  const res = await t.app.request("/events", { headers: from(ip) });
  if (res.status === 200) load.streams.push(res);
  else {
    load.refused.set(res.status, (load.refused.get(res.status) ?? 0) + 1);
    await res.text();
  }
}

/** Ends every stream and long poll of a scenario, and waits for their slots to come back. */
async function end(load: Load) {
  for (const res of load.streams) await res.body?.cancel();
  closeEventStreams(t.deps); // ends the long polls still waiting
  await Promise.all(load.polls.map((p) => p.then((r) => r.text())));
  await until(() => open() === 0, "every slot released");
}

async function honestServed() {
  const res = await t.app.request("/events", { headers: from("203.0.113.250") });
  const status = res.status;
  await res.body?.cancel();
  return status;
}

describe("1,000 long polls and streams do not lock out an honest GET /events", () => {
  it("from one IPv4 address: 50 agents × 4 long polls and 800 streams hold 20 slots; honest served", async () => {
    const load: Load = { streams: [], refused: new Map(), polls: [] };
    const ip = "198.51.100.7";
    const agents = [];
    for (let i = 0; i < 50; i++) agents.push(await signIn(t));
    const settled: number[] = [];
    for (const a of agents)
      for (let k = 0; k < 4; k++) {
        const p = Promise.resolve(t.app.request("/agents/me/inbox?wait=120", { headers: from(ip, a.token) }));
        p.then((r) => r.status !== 200 && settled.push(r.status));
        load.polls.push(p);
      }
    // Every long poll either waits (holding a slot) or was refused.
    await until(() => open() + settled.length === 200, "the 200 long polls admitted or refused");
    for (let i = 0; i < 800; i++) await stream(load, ip);
    expect(open()).toBe(20);
    expect(settled.every((s) => s === 429)).toBe(true);
    expect(await honestServed()).toBe(200);
    await end(load);
  }, 120_000);

  it("an agent's long polls and streams share its 4 slots, whatever the address", async () => {
    const a = await signIn(t);
    const load: Load = { streams: [], refused: new Map(), polls: [] };
    for (let k = 0; k < 3; k++)
      load.polls.push(
        Promise.resolve(t.app.request("/agents/me/inbox?wait=120", { headers: from(`192.0.2.${k + 1}`, a.token) })),
      );
    await until(() => open() === 3, "three long polls waiting");
    const s1 = await t.app.request("/events", { headers: from("192.0.2.9", a.token) });
    expect(s1.status).toBe(200);
    load.streams.push(s1);
    const fifth = await t.app.request("/agents/me/inbox?wait=120", { headers: from("192.0.2.10", a.token) });
    expect(fifth.status).toBe(429);
    expect(((await fifth.json()) as { details: { reason: string } }).details.reason).toBe(
      "event_connections_per_agent",
    );
    await end(load);
  });

  it("from 1,000 addresses of one /64: 20 slots; honest served", async () => {
    const load: Load = { streams: [], refused: new Map(), polls: [] };
    for (let i = 0; i < 1000; i++) await stream(load, `2001:db8:99:1:${i.toString(16)}::${(i % 7) + 1}`);
    expect(load.streams).toHaveLength(20);
    expect(load.refused.get(429)).toBe(980);
    expect(await honestServed()).toBe(200);
    await end(load);
  }, 120_000);

  it("from 50 addresses × 20: the anonymous pool's reserve stays for new clients; honest served", async () => {
    const load: Load = { streams: [], refused: new Map(), polls: [] };
    for (let a = 0; a < 50; a++) for (let k = 0; k < 20; k++) await stream(load, `198.18.${a}.1`);
    // Anonymous streams hold at most 500 (half): 450 for networks that already hold one, then each
    // later network's first slot comes from the pool's reserve of 50 (27 networks left).
    expect(load.streams.length).toBe(477);
    expect(load.refused.get(503)).toBe(523);
    expect(await honestServed()).toBe(200);
    await end(load);
  }, 120_000);
});
