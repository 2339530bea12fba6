import { describe, expect, it } from "vitest";
import { credit, missionBody, signIn } from "../helpers/agents";
import { callTool, openSession } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";

// Amounts as people write them (docs/decisions.md): the REST wire keeps base units (AIP-1 §2) and
// refuses a dust reward before any fee is taken; MCP create_mission takes whole units (25 = 25 USDC)
// or amount_base_units, and defaults to creator_judges.

const t = useTestApp();

const balanceOf = async (address: string) =>
  (await t.call("GET", `/agents/${address}/balance`)).body.balances[0].available as string;

describe("REST: the published minimum reward", () => {
  it("the manifest publishes min_reward_usd and each asset's decimals, spam fee and minimum", async () => {
    const m = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(m.payment_options.min_reward_usd).toBe(1);
    expect(m.payment_options.asset_units).toContainEqual({
      symbol: "USDC",
      decimals: 6,
      spam_fee: "5000000",
      min_reward: "1000000",
    });
  });

  it("reward.amount 25 (base units) is refused naming both readings; nothing is charged", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 100_000_000n);
    const r = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { reward: { asset: "USDC", amount: "25" } }),
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.details).toMatchObject({
      field: "reward.amount",
      reason: "below_min_reward",
      received: "0.000025 USDC",
      min_reward: "1 USDC",
      if_whole_units: { amount: "25000000", reads: "25 USDC" },
    });
    expect(r.body.message).toContain('If you meant 25 USDC, send reward.amount "25000000"');
    expect(r.body.message).toContain("Nothing was charged");
    expect(await balanceOf(creator.address)).toBe("100000000");
    // Exactly the minimum is accepted: reward and the spam fee leave the balance.
    const ok = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { reward: { asset: "USDC", amount: "1000000" } }),
    });
    expect(ok.status, ok.text).toBe(201);
    expect(await balanceOf(creator.address)).toBe("94000000");
  });
});

describe("MCP create_mission: whole units and defaults", () => {
  const args = (over: Record<string, unknown>) => {
    const { verification: _v, reward: _r, ...rest } = missionBody(t);
    return { ...rest, ...over };
  };

  it('amount "25", 25 and "25 USDC" are 25 USDC; amount_base_units is exact; verification defaults to creator_judges', async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const session = await openSession(t, creator.token);
    for (const amount of ["25", 25, "25 USDC"]) {
      const r = await callTool(
        t,
        session,
        "create_mission",
        args({ reward: { asset: "USDC", amount } }),
        creator.token,
      );
      expect(r.isError, r.content[0]!.text).toBe(false);
      expect(r.structuredContent.reward.amount).toBe("25000000");
      expect(r.structuredContent.verification.type).toBe("creator_judges");
    }
    const exact = await callTool(
      t,
      session,
      "create_mission",
      args({ reward: { asset: "USDC", amount_base_units: "2500000" } }),
      creator.token,
    );
    expect(exact.structuredContent.reward.amount).toBe("2500000");
    expect(await balanceOf(creator.address)).toBe(String(1_000_000_000 - 3 * 30_000_000 - 7_500_000));
  });

  it("errors name the field, the reason and the fix; the fee warning is in the tool description", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 1_000_000_000n);
    const session = await openSession(t, creator.token);
    const bad = await callTool(
      t,
      session,
      "create_mission",
      args({ reward: { asset: "USDC", amount: "ten" } }),
      creator.token,
    );
    expect(bad.isError).toBe(true);
    const body = JSON.parse(bad.content[0]!.text);
    expect(body.details).toMatchObject({ field: "reward.amount", reason: "not_a_number" });
    expect(body.details.fix).toContain('"amount": "25"');
    const none = await callTool(t, session, "create_mission", args({ reward: { asset: "USDC" } }), creator.token);
    expect(JSON.parse(none.content[0]!.text).details).toMatchObject({ field: "reward.amount", reason: "missing" });
    const dust = await callTool(
      t,
      session,
      "create_mission",
      args({ reward: { asset: "USDC", amount_base_units: "25" } }),
      creator.token,
    );
    expect(JSON.parse(dust.content[0]!.text).details.reason).toBe("below_min_reward");
    expect(await balanceOf(creator.address)).toBe("1000000000");
    const { TOOLS } = await import("../../src/features/mcp/mcp.tools");
    const description = TOOLS.find((x) => x.name === "create_mission")!.description;
    expect(description).toContain("25 = 25 USDC");
    expect(description).toContain("the fee is kept even after a void");
  });
});
