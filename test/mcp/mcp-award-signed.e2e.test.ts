import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chainPayouts } from "../../src/db/schema/index";
import type { TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { signTyped, type TypedRelease } from "../helpers/award-sign";
import { createBaseMission, escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";
import { callTool, openSession } from "../helpers/mcp";
import { acceptedSubmission } from "../helpers/mission-flow";

// award_mission over MCP takes the whole REST AwardRequest: a base-rail creator's signed release
// (release_signatures) is paid at once through releaseSigned, never proposed and left to the window
// (docs/base-rail.md "Release paths", docs/mcp.md "Decisions").

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;
const FEE = (REWARD * 50n) / 10_000n;

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

const payoutOf = async (missionId: string) =>
  (await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, missionId)))[0]!;

describe("MCP award_mission on the base rail", () => {
  it("passes the creator's release signatures: the award is released at once", async () => {
    const c = await createBaseMission(t, REWARD);
    const hash = await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
    const funded = await t.call("POST", `/missions/${c.m.id}/escrow`, {
      token: c.creator.token,
      body: { tx_hash: hash },
    });
    expect(funded.status, funded.text).toBe(202);
    await chain.mine(2);
    await escrowTick(t);
    const winner = await signIn(t);
    const sub = await acceptedSubmission(t, c.m.id, winner, "the answer");

    const winners = [{ submission_id: sub.body.id as string }];
    const typed = await t.call("POST", `/missions/${c.m.id}/award/typed-data`, {
      token: c.creator.token,
      body: { winners },
    });
    expect(typed.status, typed.text).toBe(200);
    const [release] = typed.body.releases as TypedRelease[];
    const signature = await signTyped(c.creator.account, release!);

    const session = await openSession(t, c.creator.token);
    const r = await callTool(
      t,
      session,
      "award_mission",
      { mission_id: c.m.id, winners, release_signatures: { [c.key]: signature } },
      c.creator.token,
    );
    expect(r.isError, r.content[0]!.text).toBe(false);
    // The signature reached the verb: the payout carries it and takes no proposal step.
    expect(await payoutOf(c.m.id)).toMatchObject({ step: null, releaseSignature: signature });
    for (let i = 0; i < 40 && (await payoutOf(c.m.id)).state !== "confirmed"; i++) {
      await escrowTick(t);
      await chain.mine(1);
    }
    expect(await payoutOf(c.m.id)).toMatchObject({ state: "confirmed" });
    expect(await chain.usdcBalance(winner.address)).toBe(REWARD - FEE);
    expect(await chain.releasedLogs(c.key)).toBe(1);
  });
});
