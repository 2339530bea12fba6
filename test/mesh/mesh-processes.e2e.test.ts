import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { httpCall, httpSignIn } from "../helpers/process";
import { startPair, useCleanups } from "../helpers/process-suite";

// Agent Mesh: a skill's rate limit is one budget per caller across every server process on one
// Postgres (the buckets are rows, src/lib/token-bucket.ts), not one per process. The real
// processes' fetcher refuses loopback (production policy), so the skill points at a name that
// never resolves: a call within the limit is forwarded and fails as unreachable (503), a call
// over it is refused before any forwarding (429) — the counts show where the limit held.
describe.runIf(onRealPostgres)("Agent Mesh rate limits across two server processes on one Postgres", () => {
  const cleanups = useCleanups();

  it("one skill budget per caller, whichever instance each call reaches, sequential and concurrent", async () => {
    const { a, b } = await startPair(cleanups, "oabp_mesh_two");
    const servers = [a.base, b.base];

    const reg = await httpCall(a.base, "POST", "/api/agents/register", { name: "Elsewhere" });
    expect(reg.status, reg.text).toBe(200);
    const key = { "x-api-key": reg.body.api_key as string };
    const skill = async (name: string) => {
      const r = await httpCall(
        b.base, // the key issued by one instance works on the other
        "POST",
        "/api/skills",
        {
          name,
          description: "a provider that is never reached",
          endpoint: `https://mesh-provider.invalid/${name}`,
          // 3 per hour: the test's own duration refills nothing.
          rateLimit: { maxCalls: 3, periodMs: 3_600_000 },
        },
        undefined,
        key,
      );
      expect(r.status, r.text).toBe(200);
      return r.body.id as string;
    };
    const consumer = await httpSignIn(a.base);
    const invoke = (base: string, id: string) =>
      fetch(`${base}/api/skills/${id}/invoke`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${consumer.token}` },
        body: JSON.stringify({ payload: {} }),
      }).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any }));

    // The provider's origin cannot be asked for its consent, so nothing is relayed: every call is
    // 503 provider_not_consented, and a call nothing answered gives its token back (docs/neighbours.md
    // "Agent Mesh"), on whichever instance it reached — six alternating calls on a budget of three
    // are never 429.
    const seq = await skill("data_alternating");
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await invoke(servers[i % 2]!, seq));
    expect(answers.map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503]);
    for (const r of answers)
      expect(r.body).toMatchObject({ error: "SERVICE_UNAVAILABLE", details: { reason: "provider_not_consented" } });

    // Concurrent, split over both instances: calls past the budget while others hold a token are
    // 429, at least the budget's three reach the consent check, and afterwards every token is back.
    const burst = await skill("data_burst");
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => invoke(servers[i % 2]!, burst)));
    for (const r of all) expect([429, 503]).toContain(r.status);
    expect(all.filter((r) => r.status === 503).length).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 3; i++) expect((await invoke(servers[i % 2]!, burst)).status).toBe(503);
  }, 120_000);
});
