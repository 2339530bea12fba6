import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { callTool, openSession } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";
import { acceptedSubmission, awardedTo } from "../helpers/mission-flow";

// docs/moderation.md "Hidden missions": a hidden mission's receipts (the AIP-1 §6.1 receipt, the
// AIP-3 §10 settlement receipt, and the one embedded in GET /submissions/{id}) answer every caller
// as the mission does — 404 to anyone but its creator and the operator. Runs on PGlite and Postgres.

const t = useTestApp();

const admin = (method: string, path: string, body?: unknown) => t.call(method, path, { token: ADMIN_TOKEN, body });

describe("receipts of a hidden mission", () => {
  it("answer 404 to the public, the winner and other agents; the creator and the operator still get them; unhide restores them", async () => {
    const { creator, mission } = await openMission(t, {
      reward: { asset: "USDC", amount: "100000000" },
      verification: { type: "creator_judges", params: { max_winners: 1 } },
    });
    const winner = await signIn(t);
    const other = await signIn(t);
    const s = await acceptedSubmission(t, mission.id, winner, "the answer");
    await awardedTo(t, mission.id, creator, s.body.id);

    const aip1 = `/missions/${mission.id}/receipts/${s.body.id}`;
    const aip3 = `/submissions/${s.body.id}/receipt`;
    const callers = {
      anonymous: undefined,
      winner: winner.token,
      other: other.token,
      creator: creator.token,
      operator: ADMIN_TOKEN,
    };
    const statuses = async () => {
      const out: Record<string, [number, number, number]> = {};
      for (const [who, token] of Object.entries(callers)) {
        out[who] = [
          (await t.call("GET", aip1, { token })).status,
          (await t.call("GET", aip3, { token })).status,
          (await t.call("GET", `/missions/${mission.id}`, { token })).status,
        ];
      }
      return out;
    };

    // Before: everyone gets both receipts (the ledger rail settles at once: 200).
    for (const [who, st] of Object.entries(await statuses())) expect(st, who).toEqual([200, 200, 200]);
    const embedded = await t.call("GET", `/submissions/${s.body.id}`);
    expect(embedded.body.receipt?.receipt_type).toBe("settlement");

    expect((await admin("POST", `/admin/missions/${mission.id}/hide`, { reason: "reported" })).status).toBe(200);
    const hidden = await statuses();
    for (const who of ["anonymous", "winner", "other"]) expect(hidden[who], who).toEqual([404, 404, 404]);
    for (const who of ["creator", "operator"]) expect(hidden[who], who).toEqual([200, 200, 200]);
    const miss = await t.call("GET", aip1);
    expect(miss.body.error).toBe("NOT_FOUND");
    // The same answer as a submission that does not exist.
    const none = await t.call("GET", "/submissions/sub_01JZ0000000000000000000000/receipt");
    expect(none.status).toBe(404);
    expect((await t.call("GET", aip3)).body.error).toBe(none.body.error);
    // MCP reads as REST does.
    const anon = await callTool(t, await openSession(t), "get_receipt", {
      mission_id: mission.id,
      submission_id: s.body.id,
    });
    expect(anon.isError).toBe(true);
    const own = await callTool(
      t,
      await openSession(t, creator.token),
      "get_receipt",
      { mission_id: mission.id, submission_id: s.body.id },
      creator.token,
    );
    expect(own.isError).toBe(false);
    expect(own.structuredContent.submission_id).toBe(s.body.id);

    expect((await admin("POST", `/admin/missions/${mission.id}/unhide`, {})).status).toBe(200);
    for (const [who, st] of Object.entries(await statuses())) expect(st, who).toEqual([200, 200, 200]);
  });
});
