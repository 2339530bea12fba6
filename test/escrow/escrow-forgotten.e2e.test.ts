import { describe, expect, it } from "vitest";
import { forgottenContracts } from "../../src/features/rail";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openBaseMission } from "../helpers/base-rail-mission";
import { useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";

// A switch to a new escrow that forgets the old one while it still holds this server's slots is
// refused at start (src/startup.ts refuseForgottenContracts; docs/base-rail.md "Migrating to a new
// escrow"): the message names the address and the setting that fixes it.

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));

describe("start-up: a contract that still holds slots cannot be forgotten", () => {
  it("names the old contract and the fix; with OABP_ESCROW_RETIRED it passes", async () => {
    await openBaseMission({ t, chain }, { attach: true });
    expect(await forgottenContracts(t.deps)).toEqual([]);

    const next = await chain.deployEscrow();
    const forgot = await makeTestApp(chain.env({ OABP_ESCROW_ADDRESS: next }), { database: t.db });
    const problems = await forgottenContracts(forgot.deps);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(chain.escrow.toLowerCase());
    expect(problems[0]).toMatch(/OABP_ESCROW_RETIRED/);
    await forgot.close();

    const retired = JSON.stringify([{ address: chain.escrow, start_block: 0, version: "3" }]);
    const kept = await makeTestApp(chain.env({ OABP_ESCROW_ADDRESS: next, OABP_ESCROW_RETIRED: retired }), {
      database: t.db,
    });
    expect(await forgottenContracts(kept.deps)).toEqual([]);
    await kept.close();
  }, 120_000);
});
