import { describe, expect, it } from "vitest";
import { closeEventStreams } from "../../src/features/events";
import { hubOf } from "../../src/features/events/events.hub";
import { signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { missionWithParties } from "../helpers/mission-flow";

// Caps that protect the parties, stream part (docs/events.md "Connection slots"): anonymous
// streams from 145 client networks (100 IPv4 addresses and 45 IPv6 /64s) fill the anonymous pool,
// free agents with no stake from 40 more networks fill what non-parties may hold; the mission's
// creator, its solver (a submitter) and a claimer still get a stream, and the solver a long poll.
// A small server: 200 slots, 20 (a tenth) in reserve, 4 per network — parties' share 50, anonymous pool 100.

const t = useTestApp(
  {
    OABP_TRUST_PROXY: "true",
    OABP_EVENTS_MAX_CONNECTIONS: "200",
    OABP_EVENTS_MAX_PER_IP: "4",
    OABP_INBOX_MAX_WAIT_SECONDS: "120",
  },
  { limits: { eventsPollMs: 50 } },
);

const open = () => hubOf(t.deps).openConnections;
const headers = (ip: string, token?: string) => ({
  "x-forwarded-for": ip,
  ...(token && { authorization: `Bearer ${token}` }),
});

interface Tally {
  streams: Response[];
  refused: Map<string, number>;
}

/** Opens a stream; a refusal is tallied by status, reason and pool. */
async function stream(tally: Tally, ip: string, token?: string): Promise<number> {
  const res = await t.app.request("/events", { headers: headers(ip, token) });
  if (res.status === 200) tally.streams.push(res);
  else {
    const body = (await res.json()) as { details: { reason: string; pool?: string } };
    const key = `${res.status} ${body.details.reason}${body.details.pool ? ` ${body.details.pool}` : ""}`;
    tally.refused.set(key, (tally.refused.get(key) ?? 0) + 1);
  }
  return res.status;
}

describe("the parties' share of the event-stream slots", () => {
  it("145 networks of anonymous streams and 40 networks of free agents leave the parties their streams", async () => {
    const { creator, solver, claimer } = await missionWithParties(t);

    const anon: Tally = { streams: [], refused: new Map() };
    for (let a = 0; a < 100; a++) for (let k = 0; k < 4; k++) await stream(anon, `198.18.${a}.1`);
    // Each /64 from four of its addresses: one network.
    for (let n = 0; n < 45; n++)
      for (let k = 0; k < 4; k++) await stream(anon, `2001:db8:${n.toString(16)}:7::${(k + 1).toString(16)}`);
    // 90 slots for networks holding one (22 × 4 + 2), then 10 first slots from the pool's reserve
    // (the other streams of those networks: reserved, 2 + 9 × 3); every later one: the pool is full.
    expect(anon.streams).toHaveLength(100);
    expect(Object.fromEntries(anon.refused)).toEqual({
      "503 event_connections_reserved anonymous": 29,
      "503 event_connections_full anonymous": 451,
    });

    const agents: Tally = { streams: [], refused: new Map() };
    for (let a = 0; a < 40; a++) {
      const free = await signIn(t);
      for (let k = 0; k < 4; k++) await stream(agents, `203.0.113.${a + 1}`, free.token);
    }
    // Non-parties hold at most 200 − 50 = 150, the anonymous ones included: 50 more here (35 up
    // to the pool's reserve of 15, then one first slot for each of 15 more networks).
    expect(agents.streams).toHaveLength(50);
    expect(Object.fromEntries(agents.refused)).toEqual({
      "503 event_connections_reserved agent": 43,
      "503 event_connections_full agent": 67,
    });
    expect(open()).toBe(150);

    const parties: Tally = { streams: [], refused: new Map() };
    expect(await stream(parties, "192.0.2.1", creator.token)).toBe(200);
    expect(await stream(parties, "192.0.2.2", solver.token)).toBe(200);
    expect(await stream(parties, "2001:db8:ffff:1::1", claimer.token)).toBe(200);
    // The solver's long poll waits past the events it already has.
    const seen = await t.call("GET", "/agents/me/inbox?limit=100", { token: solver.token });
    expect(seen.status, seen.text).toBe(200);
    const poll = Promise.resolve(
      t.app.request(`/agents/me/inbox?wait=120&after=${seen.body.next_cursor}`, {
        headers: headers("192.0.2.3", solver.token),
      }),
    );
    for (let i = 0; i < 2000 && open() < 154; i++) await new Promise((r) => setTimeout(r, 10));
    expect(open()).toBe(154);
    // An anonymous newcomer and a free agent are still refused: the share is the parties'.
    expect(await stream(parties, "192.0.2.9")).toBe(503);
    expect(await stream(parties, "192.0.2.10", (await signIn(t)).token)).toBe(503);

    for (const res of [...anon.streams, ...agents.streams, ...parties.streams]) await res.body?.cancel();
    closeEventStreams(t.deps);
    expect((await poll).status).toBe(200);
    for (let i = 0; i < 2000 && open() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(open()).toBe(0);
  }, 180_000);
});
