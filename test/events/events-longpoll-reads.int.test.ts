import { describe, expect, it } from "vitest";
import { closeEventStreams } from "../../src/features/events";
import { hubOf } from "../../src/features/events/events.hub";
import { signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// docs/abuse-edge.md "Read limits", docs/events.md "Connection slots": an inbox long poll holds
// one of its agent's long-lived connection slots, not a share of the agent's running reads — so
// an agent waiting on its inbox still reads at once, and its long polls are bounded by its slots
// (4 per agent). Running share 1 of 2 admitted: a long poll counted as a read would block the
// agent's next read, and a third would be refused as `reads_in_flight`.

const t = useTestApp(
  { OABP_INBOX_MAX_WAIT_SECONDS: "120", OABP_READ_INFLIGHT_PER_CALLER: "2", OABP_READ_RUNNING_PER_CALLER: "1" },
  { limits: { eventsPollMs: 50 } },
);

const open = () => hubOf(t.deps).openConnections;
async function until(cond: () => boolean, what: string) {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond(), what).toBe(true);
}

describe("an agent's inbox long polls do not block its reads", () => {
  it("4 long polls wait in the agent's slots; its reads are served meanwhile; a 5th long poll is refused by slot", async () => {
    const a = await signIn(t);
    const headers = { authorization: `Bearer ${a.token}` };
    const settled: number[] = [];
    const polls = [1, 2, 3, 4].map(async () => {
      const r = await t.app.request("/agents/me/inbox?wait=120", { headers });
      settled.push(r.status);
      return r;
    });
    await until(() => open() === 4, "four long polls waiting in the hub");

    // Reads of the same agent (its running share is 1) are served while all four still wait.
    for (const path of ["/agents/me/inbox", "/missions?limit=5", "/agents/me/inbox?limit=5"]) {
      const r = await t.app.request(path, { headers });
      expect(r.status, `${path}: ${await r.clone().text()}`).toBe(200);
      await r.text();
    }
    expect(settled).toEqual([]);

    const fifth = await t.app.request("/agents/me/inbox?wait=120", { headers });
    expect(fifth.status).toBe(429);
    expect(((await fifth.json()) as { details: { reason: string } }).details.reason).toBe(
      "event_connections_per_agent",
    );
    expect(settled).toEqual([]);

    closeEventStreams(t.deps); // ends the long polls still waiting
    const done = await Promise.all(polls);
    expect(done.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await Promise.all(done.map((r) => r.text()));
    await until(() => open() === 0, "every slot released");
  });
});
