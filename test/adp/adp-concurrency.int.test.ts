import { describe, expect, it } from "vitest";
import { signIn } from "../helpers/agents";
import { ed25519Identity, signCard } from "../helpers/adp";
import { onRealPostgres } from "../helpers/db";
import { useTestApp } from "../helpers/suite-app";

// ADP §3.2/§7.3 under concurrency: the seq and signed-over-unsigned rules and the did binding are
// decided by one conditional statement each, so racing advertisements cannot leave a stale card
// stored or bind one key to two agents. Real concurrent connections: Postgres only.
describe.runIf(onRealPostgres)("adp.advertise races on real Postgres", () => {
  const t = useTestApp({}, { poolMax: 20 });

  const card = (address: string, did: string, seq: number) => ({
    id: `agent://race-${address.slice(2, 10)}`,
    name: `race ${seq}`,
    did,
    skills: ["ops/monitoring"],
    seq,
    extensions: { oabp: { agent_id: address } },
  });

  it("30 signed cards with shuffled seqs at once: the highest seq is stored, every other answer is stored or stale", async () => {
    const a = await signIn(t);
    const key = ed25519Identity();
    const seqs = Array.from({ length: 30 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    // half through the session, half as signature-only relays once the key is bound
    await t.call("POST", "/adp/adp.advertise", {
      token: a.token,
      body: signCard(card(a.address, key.did, 0), key.privateKey),
    });
    const results = await Promise.all(
      seqs.map((seq, i) =>
        t.call("POST", "/adp/adp.advertise", {
          ...(i % 2 ? { token: a.token } : {}),
          body: signCard(card(a.address, key.did, seq), key.privateKey),
        }),
      ),
    );
    for (const r of results) {
      if (r.status === 200) expect(r.body.stored).toBe(true);
      else {
        expect(r.status, r.text).toBe(409);
        expect(r.body.details.reason).toBe("stale_seq");
      }
    }
    expect(results[seqs.indexOf(30)]!.status).toBe(200);
    const stored = await t.call("POST", "/adp/adp.describe", { body: { agent_id: a.address } });
    expect(stored.body.seq).toBe(30);
    expect(stored.body.name).toBe("race 30");
  });

  it("one did:key raced by 10 agents: exactly one binds it", async () => {
    const key = ed25519Identity();
    const agents = await Promise.all(Array.from({ length: 10 }, () => signIn(t)));
    const results = await Promise.all(
      agents.map((a) =>
        t.call("POST", "/adp/adp.advertise", {
          token: a.token,
          body: signCard(card(a.address, key.did, 1), key.privateKey),
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status, r.text).toBe(409);
      expect(r.body.details.reason).toBe("did_bound_elsewhere");
    }
  });
});
