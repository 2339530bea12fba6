import { describe, expect, it } from "vitest";
import { credit, missionBody, openMission, signIn } from "../helpers/agents";
import { submitAs } from "../helpers/judging";
import { useTestApp } from "../helpers/suite-app";

const t = useTestApp();

describe("missions", () => {
  it("creates an open mission, escrowing reward + spam fee from the creator's balance", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, "200000000");
    const r = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { tags: ["Search", "search", "docs"] }),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      creator: creator.address,
      status: "open",
      phase: "accepting_submissions",
      payout_status: "not_applicable",
      reward: { asset: "USDC", amount: "100000000", chain: "ledger" },
      verification: { type: "creator_judges", params: { max_winners: 1 } },
      spam_fee: "5000000",
      tags: ["search", "docs"],
      submission_count: 0,
      resolution: null,
    });
    expect(r.body.id).toMatch(/^mis_[0-9A-Z]{26}$/);
    expect(r.body.view_url).toBe(`http://oabp.test/m/${r.body.id}`);
    const bal = await t.call("GET", `/agents/${creator.address}/balance`);
    expect(bal.body.aigen_balance).toBe(95000000);
    const got = await t.call("GET", `/missions/${r.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(r.body);
    const viaApi = await t.call("GET", `/api/missions/${r.body.id}`);
    expect(viaApi.body).toEqual(r.body);
  });

  it("refuses a creation the balance cannot cover and writes nothing", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, "100000000"); // reward alone; the 5 USDC fee is missing
    const r = await t.call("POST", "/missions", { token: creator.token, body: missionBody(t) });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe("INSUFFICIENT_BALANCE");
    const list = await t.call("GET", `/missions?creator=${creator.address}`);
    expect(list.body.missions).toEqual([]);
    expect((await t.call("GET", `/agents/${creator.address}/balance`)).body.aigen_balance).toBe(100000000);
  });

  it("lets the creator void an open mission without submissions: reward refunded, fee kept", async () => {
    const { creator, mission } = await openMission(t);
    const before = (await t.call("GET", `/agents/${creator.address}/balance`)).body.aigen_balance;
    const other = await signIn(t);
    expect((await t.call("POST", `/missions/${mission.id}/void`, { token: other.token })).status).toBe(403);
    const r = await t.call("POST", `/missions/${mission.id}/void`, { token: creator.token });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("voided");
    const after = (await t.call("GET", `/agents/${creator.address}/balance`)).body.aigen_balance;
    expect(BigInt(after) - BigInt(before)).toBe(100000000n);
    const again = await t.call("POST", `/missions/${mission.id}/void`, { token: creator.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("MISSION_NOT_OPEN");
  });

  it("refuses to void a mission that has a submission", async () => {
    const { creator, mission } = await openMission(t);
    const solver = await signIn(t);
    await submitAs(t, mission.id, solver, "answer");
    const r = await t.call("POST", `/missions/${mission.id}/void`, { token: creator.token });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: "CONFLICT", details: { reason: "has_submissions" } });
  });
});
