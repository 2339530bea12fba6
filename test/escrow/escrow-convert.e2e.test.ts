import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookEvents } from "../../src/db/schema/index";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { awardedBaseMission, escrowEvents, payoutOf as payoutRow, REWARD } from "../helpers/base-rail-mission";
import { escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// Build "admin routes to … convert payouts with a reason (audit-logged)", on anvil through
// HTTP: a release the escrow refuses (fee cap 0 → FeeTooHigh) is converted by the operator into the
// refund of the deposit; the refund confirms, the funder has the deposit back, the winner nothing,
// and the mission reads as voided (docs/base-rail.md "Operator routes").

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
const jobTick = async () => {
  await escrowTick(t);
  await chain.mine(1);
};
const refundedLogs = async (key: `0x${string}`) => (await escrowEvents(chain, key, "Refunded")).length;
const payoutOf = (missionId: string) => payoutRow(t, missionId);
const convert = (id: string, token?: string) =>
  t.call("POST", `/admin/payouts/${id}/convert`, {
    ...(token ? { token } : {}),
    body: { reason: "winner address refuses transfers; refund agreed" },
  });

/** An open, funded base mission with one submission, awarded to it. */
const awarded = (reward: bigint) => awardedBaseMission({ t, chain }, { reward });

describe("POST /admin/payouts/{id}/convert", () => {
  it("a failed release becomes the refund of the deposit: it confirms on chain, the funder has it back, the winner nothing, the mission is voided", async () => {
    // Decided while the server's fee (2 %) is above the contract's cap (1 %, which contract v3 only
    // ever lowers): the release reverts FeeTooHigh.
    t.deps.config.feeBps = 200;
    const a = await awarded(REWARD).finally(() => (t.deps.config.feeBps = 50));
    for (let i = 0; i < 3; i++) await jobTick();
    expect(await mission(a.m.id)).toMatchObject({
      status: "resolved",
      payout_status: "failed",
      payout_status_reason: "reverted:FeeTooHigh",
    });
    const failed = await payoutOf(a.m.id);
    const funderBefore = await chain.usdcBalance(a.creator.address);

    expect((await convert(failed.id)).status).toBe(401); // anonymous
    expect((await convert(failed.id, a.creator.token)).status).toBe(403); // an agent is not the operator
    const r = await convert(failed.id, ADMIN_TOKEN);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      id: failed.id,
      kind: "refund",
      state: "queued",
      amount: REWARD.toString(),
      fee: "0",
      recipients: 1,
      tx_hash: null,
      reason: "admin_convert:winner address refuses transfers; refund agreed",
      admin_actions: [
        { action: "convert", reason: "winner address refuses transfers; refund agreed", from_state: "failed" },
      ],
    });
    const voided = await mission(a.m.id);
    expect(voided).toMatchObject({
      status: "voided",
      phase: "closed",
      resolution_reason: "payout_converted_to_refund",
      payout_status: "queued",
    });
    expect(voided.resolution ?? null).toBeNull();
    // A second convert finds a queued refund: 409 with the allowed states.
    const again = await convert(failed.id, ADMIN_TOKEN);
    expect(again.status).toBe(409);
    expect(again.body.details).toMatchObject({ reason: "payout_state", state: "queued", allowed: ["failed"] });

    // The refund carries no fee, so the fee cap does not stop it.
    for (let i = 0; i < 3; i++) await jobTick();
    expect(await mission(a.m.id)).toMatchObject({ status: "voided", payout_status: "confirmed" });
    expect(await chain.usdcBalance(a.creator.address)).toBe(funderBefore + REWARD);
    expect(await chain.usdcBalance(a.winner.address)).toBe(0n);
    expect(await refundedLogs(a.key)).toBe(1);
    expect(await chain.releasedLogs(a.key)).toBe(0);
    // Webhooks and receipts as for any void: mission.voided announced, no receipt for the unpaid winner.
    const events = await t.deps.database.db.select().from(webhookEvents).where(eq(webhookEvents.missionId, a.m.id));
    const voidEvents = events.filter((e) => e.type === "mission.voided");
    expect(voidEvents).toHaveLength(1);
    expect(JSON.parse(voidEvents[0]!.data)).toMatchObject({
      resolution_reason: "payout_converted_to_refund",
      refund: { amount: REWARD.toString() },
    });
    expect(events.some((e) => e.type === "payout.confirmed")).toBe(false);
    expect((await t.call("GET", `/missions/${a.m.id}/receipts/${a.subId}`)).status).toBe(404);

    // Confirmed now: converting it again is refused with the allowed states.
    const late = await convert(failed.id, ADMIN_TOKEN);
    expect(late.status).toBe(409);
    expect(late.body.details).toMatchObject({ reason: "payout_state", allowed: ["failed"] });
  });

  it("a queued or confirmed release is not converted (409, allowed states named); an unknown payout is 404", async () => {
    const b = await awarded(REWARD);
    const queued = await payoutOf(b.m.id);
    expect(queued.state).toBe("queued");
    const q = await convert(queued.id, ADMIN_TOKEN);
    expect(q.status, q.text).toBe(409);
    expect(q.body.details).toMatchObject({ reason: "payout_state", state: "queued", allowed: ["failed"] });
    for (let i = 0; i < 3; i++) await jobTick();
    expect(await mission(b.m.id)).toMatchObject({ status: "resolved", payout_status: "confirmed" });
    const c = await convert(queued.id, ADMIN_TOKEN);
    expect(c.status).toBe(409);
    expect(c.body.details).toMatchObject({ reason: "payout_state", state: "confirmed", allowed: ["failed"] });
    expect(await chain.releasedLogs(b.key)).toBe(1);
    expect(await refundedLogs(b.key)).toBe(0);
    expect((await convert("pay_nope", ADMIN_TOKEN)).status).toBe(404);
  });
});
