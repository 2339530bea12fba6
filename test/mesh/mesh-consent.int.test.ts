import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSENT_PATH, ORIGIN_BUDGET } from "../../src/features/mesh/mesh.consent";
import { makeTestApp, PUBLIC_URL, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { startReceiver, type Receiver } from "../helpers/receiver";

// A relay that asks first (docs/neighbours.md "Agent Mesh", "Consent"): real local HTTP
// listeners on the loopback address the test fetcher may reach. An endpoint whose origin did not
// publish its consent receives no relayed invocation; one that did receives at most the
// per-origin budget however many mesh keys aim at it.

let t: TestApp;
const listeners: Receiver[] = [];
beforeAll(async () => {
  t = await makeTestApp({ OABP_MESH_INVOKE_RATE: "1000/60" });
});
afterAll(async () => {
  for (const l of listeners) await l.close();
  await t?.close();
});

const invocations = (r: Receiver) => r.received.filter((x) => x.path === "/hook");

/** `keys` mesh agents each registering a skill at the receiver's /hook; their skill ids. */
async function skillsAt(r: Receiver, keys: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < keys; i++) {
    const reg = await t.call("POST", "/api/agents/register", {
      body: { name: `relay${i}`, endpoint: `${r.base}/hook` },
    });
    expect(reg.status, reg.text).toBe(200);
    const skill = await t.call("POST", "/api/skills", {
      headers: { "x-api-key": reg.body.api_key },
      body: { agentId: reg.body.agentId, name: "s", description: "d", endpoint: `${r.base}/hook`, version: "1.0.0" },
    });
    expect(skill.status, skill.text).toBe(200);
    ids.push(skill.body.id);
  }
  return ids;
}

describe("the Mesh relay asks first", () => {
  it("an origin without consent receives no relayed request; the caller is told why and how to fix it", async () => {
    const victim = await startReceiver({ "/hook": () => ({ status: 200, body: "{}" }) });
    listeners.push(victim);
    // A consent file that names another hub is no consent either.
    const other = await startReceiver({
      "/hook": () => ({ status: 200, body: "{}" }),
      [CONSENT_PATH]: () => ({ status: 200, body: JSON.stringify({ hubs: ["https://another-hub.example"] }) }),
    });
    listeners.push(other);
    for (const r of [victim, other]) {
      const [skill] = await skillsAt(r, 1);
      const caller = await signIn(t);
      for (let i = 0; i < 5; i++) {
        const res = await t.call("POST", `/api/skills/${skill}/invoke`, { token: caller.token, body: { payload: {} } });
        expect(res.status, res.text).toBe(503);
        expect(res.body.details).toMatchObject({ reason: "provider_not_consented" });
        expect(res.body.details.fix).toContain(CONSENT_PATH);
      }
      expect(invocations(r)).toHaveLength(0);
      // The consent file was asked once, then the answer kept.
      expect(r.at(CONSENT_PATH)).toHaveLength(1);
    }
  });

  it("a consenting origin receives at most the per-origin budget across 20 keys", async () => {
    const provider = await startReceiver({
      "/hook": () => ({ status: 200, headers: { "content-type": "application/json" }, body: '{"ok":true}' }),
      [CONSENT_PATH]: () => ({ status: 200, body: JSON.stringify({ hubs: [PUBLIC_URL] }) }),
    });
    listeners.push(provider);
    const skills = await skillsAt(provider, 20);
    const callers = await Promise.all(skills.map(() => signIn(t)));
    const codes = new Map<number, number>();
    for (let round = 0; round < 5; round++)
      for (let i = 0; i < skills.length; i++) {
        const res = await t.call("POST", `/api/skills/${skills[i]}/invoke`, {
          token: callers[i]!.token,
          body: { payload: {} },
        });
        codes.set(res.status, (codes.get(res.status) ?? 0) + 1);
        if (res.status === 503) expect(res.body.details.reason).toBe("provider_origin_busy");
      }
    // 100 invocations aimed at it within one window (the manual clock stands still).
    expect(invocations(provider)).toHaveLength(ORIGIN_BUDGET.quota);
    expect(Object.fromEntries(codes)).toEqual({ 200: ORIGIN_BUDGET.quota, 503: 100 - ORIGIN_BUDGET.quota });
    // The next window refills the budget.
    t.clock.advance(ORIGIN_BUDGET.windowSeconds * 1000);
    const later = await t.call("POST", `/api/skills/${skills[0]}/invoke`, {
      token: callers[0]!.token,
      body: { payload: {} },
    });
    expect(later.status, later.text).toBe(200);
  });
});
