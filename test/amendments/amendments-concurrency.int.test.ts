import { describe, expect, it } from "vitest";
import { balancesOf, verifyLedger } from "../../src/features/ledger/ledger.service";
import { credit, openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { useTestApp } from "../helpers/suite-app";

// Top-ups move value in one transaction under the mission row lock. PGlite is
// one connection, so the races run on the Postgres server named by DATABASE_URL.
describe.runIf(onRealPostgres)("amendments under concurrency (real Postgres)", () => {
  // 25 top-ups by others: above the default per-mission bound of others' top-ups.
  const t = useTestApp(
    { OABP_SESSION_TTL_SECONDS: String(30 * 86_400) },
    { poolMax: 32, limits: { topUpsMaxPerMission: 50 } },
  );

  const usdc = async (address: string) => (await balancesOf(t.deps.database.db, `agent:${address}`)).get("USDC") ?? 0n;

  it("30 concurrent top-ups by 10 backers (3 each, one overdrawing) and an award race: every unit accounted for", async () => {
    const { creator, mission } = await openMission(t, {
      reward: { asset: "USDC", amount: "10000000" },
      verification: { type: "creator_judges", params: { appeal: false } },
    });
    const backers = await Promise.all(Array.from({ length: 10 }, () => signIn(t)));
    // Each backer can afford two top-ups of 1 USDC, not three.
    for (const b of backers) await credit(t, b.address, 2_000_000n);
    const results = await Promise.all(
      backers.flatMap((b) =>
        [0, 1, 2].map(() =>
          t.call("POST", `/missions/${mission.id}/amendments`, {
            token: b.token,
            body: { kind: "top_up", amount: "1000000" },
          }),
        ),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    const broke = results.filter((r) => r.status === 409);
    expect(
      ok,
      JSON.stringify(results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.text)),
    ).toHaveLength(20);
    for (const r of broke) expect(r.body.error).toBe("INSUFFICIENT_BALANCE");
    for (const b of backers) expect(await usdc(b.address)).toBe(0n);
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ reward: { amount: "30000000" }, amendments_count: 20 });
    const log = (await t.call("GET", `/missions/${mission.id}/amendments?limit=100`)).body;
    expect(log.amendments.map((a: { seq: number }) => a.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));

    // Top-ups racing the award: each one either lands before the resolution (and is paid out) or is
    // refused (mission_decided); the winner gets exactly the reward the resolution saw, less the fee.
    const late = await Promise.all(Array.from({ length: 5 }, () => signIn(t)));
    for (const b of late) await credit(t, b.address, 1_000_000n);
    const solver = await signIn(t);
    const s = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: solver.token,
      body: { content: "k" },
    });
    const [award, ...tops] = await Promise.all([
      t.call("POST", `/missions/${mission.id}/award`, {
        token: creator.token,
        body: { winners: [{ submission_id: s.body.id }] },
      }),
      ...late.map((b) =>
        t.call("POST", `/missions/${mission.id}/amendments`, {
          token: b.token,
          body: { kind: "top_up", amount: "1000000" },
        }),
      ),
    ]);
    expect(award.status, award.text).toBe(200);
    const landed = tops.filter((r) => r.status === 201).length;
    for (const r of tops.filter((r) => r.status !== 201)) expect(r.body.details?.reason).toBe("mission_decided");
    const reward = 30_000_000n + BigInt(landed) * 1_000_000n;
    const final = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(final.reward.amount).toBe(reward.toString());
    expect(await usdc(solver.address)).toBe(reward - (reward * 50n) / 10_000n);
    expect((await balancesOf(t.deps.database.db, `escrow:${mission.id}`)).get("USDC") ?? 0n).toBe(0n);
    expect((await verifyLedger(t.deps.database.db)).ok).toBe(true);
  });
});
