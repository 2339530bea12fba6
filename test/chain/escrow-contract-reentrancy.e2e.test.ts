import {
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
} from "viem";
import { describe, expect, it } from "vitest";
import { missionEscrowV3Abi as missionEscrowAbi } from "../../src/lib/abi/mission-escrow-v3";
import type { Anvil } from "../helpers/anvil";
import { RELEASE_DELAY, signReleaseWith } from "../helpers/escrow-chain";
import {
  A,
  acct,
  MINT,
  as,
  read,
  mined,
  balanceOf,
  deltas,
  escrowLogs,
  makeResolver,
  fund,
  release,
  useContractChain,
} from "../helpers/escrow-contract";
import { U, missionKey, RESOLVER_ROLE } from "../helpers/escrow-v3";

// On-chain tests of contracts/legacy/MissionEscrowV3.sol on a local anvil (chain id 8453): every
// outer operation that moves the malicious ReentrantToken, re-entered with every escrow call.
// Set-up: test/helpers/escrow-contract.ts.

let anvil: Anvil;
let usdc: Address;
let rt: Address;
let escrow: Address;
useContractChain((c) => ({ anvil, usdc, rt, escrow } = c));

describe("reentrancy through a malicious token (ReentrantToken)", () => {
  const D = U(1000);
  const K1 = missionKey("mis_rt"); // the RT deposit the outer operation settles
  const KV = missionKey("mis_rt_victim"); // funder2's USDC slot a reentrant release/refund would hit
  const KR = missionKey("mis_rt_stray"); // a released key on which the token contract has a stray USDC slot
  const KC = missionKey("mis_rt_credit"); // a release that credited USDC to the token contract
  const KF = missionKey("mis_rt_fund"); // a key the reentrant fund would fund
  const KO = missionKey("mis_rt_outer_fund");

  const rtRead = () => as("admin").rt.read;
  /** Makes the token contract itself call target(data): arm, then a zero mint fires it. */
  async function asToken(target: Address, data: Hex) {
    await mined(as("attacker").rt.write.arm([target, data]));
    await mined(as("attacker").rt.write.mint([A.attacker, 0n]));
    return rtRead().lastReentrySucceeded();
  }
  async function lastReentryError() {
    expect(await rtRead().lastReentrySucceeded()).toBe(false);
    return decodeErrorResult({ abi: missionEscrowAbi as Abi, data: await rtRead().lastReentryReturn() });
  }

  /** The token holds RESOLVER_ROLE, USDC + an allowance, a reclaimable stray slot and a USDC credit: each reentrant call would succeed but for the guard. */
  async function setup() {
    await makeResolver(rt);
    await fund("funder", K1, D, U(5), rt);
    await fund("funder2", KV, D, 0n);
    await mined(as("admin").usdc.write.mint([rt, U(100)]));
    expect(
      await asToken(usdc, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [escrow, maxUint256] })),
    ).toBe(true);
    await fund("funder", KR, U(100), 0n);
    expect(
      await asToken(
        escrow,
        encodeFunctionData({ abi: missionEscrowAbi, functionName: "fund", args: [KR, usdc, U(50), 0n] }),
      ),
    ).toBe(true);
    await mined(release(KR, "funder", [A.alice], [U(100)], 0n));
    await mined(as("admin").usdc.write.setBlacklisted([rt, true]));
    await fund("funder", KC, U(100), 0n);
    await mined(release(KC, "funder", [rt], [U(20)], 0n));
    await mined(as("admin").usdc.write.setBlacklisted([rt, false]));
    expect(await read().credits([usdc, rt])).toBe(U(20));
    // Contract v3: a ready proposal on the victim slot (anyone may execute it) and funder2's
    // signature of the same release (the token holds RESOLVER_ROLE, so releaseSigned would pass too).
    await mined(as("resolver").escrow.write.proposeRelease([KV, A.funder2, [A.attacker], [D], 0n]));
    victimSig = await signReleaseWith(
      acct.funder2,
      { chainId: anvil.chainId, escrow },
      { missionKey: KV, recipients: [A.attacker], amounts: [D], fee: 0n },
    );
    await anvil.testClient.increaseTime({ seconds: RELEASE_DELAY });
    await anvil.testClient.mine({ blocks: 1 });
  }
  let victimSig: Hex = "0x";
  const victimIntact = async () =>
    expect([await read().depositOf([KV, A.funder2]), await read().released([KV])]).toEqual([[usdc, D], false]);

  const reentries = {
    executeRelease: {
      data: () =>
        encodeFunctionData({
          abi: missionEscrowAbi,
          functionName: "executeRelease",
          args: [KV, A.funder2, [A.attacker], [D], 0n],
        }),
      intact: victimIntact,
    },
    releaseSigned: {
      data: () =>
        encodeFunctionData({
          abi: missionEscrowAbi,
          functionName: "releaseSigned",
          args: [KV, A.funder2, [A.attacker], [D], 0n, victimSig],
        }),
      intact: victimIntact,
    },
    refund: {
      data: () => encodeFunctionData({ abi: missionEscrowAbi, functionName: "refund", args: [KV, A.funder2] }),
      intact: async () => expect(await read().depositOf([KV, A.funder2])).toEqual([usdc, D]),
    },
    withdraw: {
      data: () => encodeFunctionData({ abi: missionEscrowAbi, functionName: "withdraw", args: [usdc] }),
      intact: async () =>
        expect([await read().credits([usdc, rt]), await balanceOf(usdc, A.attacker)]).toEqual([U(20), MINT]),
    },
    reclaim: {
      data: () => encodeFunctionData({ abi: missionEscrowAbi, functionName: "reclaim", args: [KR] }),
      intact: async () => expect(await read().depositOf([KR, rt])).toEqual([usdc, U(50)]),
    },
    fund: {
      data: () => encodeFunctionData({ abi: missionEscrowAbi, functionName: "fund", args: [KF, usdc, U(10), 0n] }),
      intact: async () => expect(await read().depositOf([KF, rt])).toEqual([zeroAddress, 0n]),
    },
  };

  // Each outer operation moves RT exactly once per party; `events` lists every escrow event the outer tx emits, in order.
  const outers = {
    release: {
      prepare: async () => {},
      run: () => mined(release(K1, "funder", [A.alice], [U(800)], U(8))),
      watch: () => [A.alice, A.treasury, A.funder, escrow],
      expected: [U(800), U(8), U(192), -D],
      events: ["Released", "Paid", "Paid", "Paid"],
    },
    refund: {
      prepare: async () => {},
      run: () => mined(as("resolver").escrow.write.refund([K1, A.funder])),
      watch: () => [A.funder, A.treasury, escrow],
      expected: [D, 0n, -D],
      events: ["Refunded", "Paid"],
    },
    fund: {
      prepare: () =>
        mined(
          as("funder2")
            .erc20(rt)
            .write.approve([escrow, D + U(5)]),
        ),
      run: () => mined(as("funder2").escrow.write.fund([KO, rt, D, U(5)])),
      watch: () => [A.funder2, A.treasury, escrow],
      expected: [-(D + U(5)), U(5), D],
      events: ["Funded", "Paid"],
    },
    reclaim: {
      prepare: async () => {
        await fund("funder2", K1, D, 0n, rt); // a stray RT slot on K1, reclaimable once K1 is released
        await mined(release(K1, "funder", [A.alice], [D], 0n));
      },
      run: () => mined(as("funder2").escrow.write.reclaim([K1])),
      watch: () => [A.funder2, A.attacker, escrow],
      expected: [D, 0n, -D],
      events: ["Reclaimed", "Paid"],
    },
  };

  describe.each(Object.keys(outers) as (keyof typeof outers)[])("during the token transfer of %s", (outerName) => {
    it.each(Object.keys(reentries) as (keyof typeof reentries)[])(
      "re-entering %s fails on the guard; the outer operation completes exactly once",
      async (name) => {
        const outer = outers[outerName];
        const re = reentries[name];
        await setup();
        await outer.prepare();
        await mined(as("attacker").rt.write.arm([escrow, re.data()]));
        const { receipt, d } = await deltas(rt, outer.watch(), outer.run);
        expect(d).toEqual(outer.expected);
        expect(escrowLogs(receipt).map((l) => l.eventName)).toEqual(outer.events);
        expect((await lastReentryError()).errorName).toBe("ReentrancyGuardReentrantCall");
        await re.intact();
        // Control: the very same call made by the token outside a payout succeeds — only the guard stopped it.
        expect(await asToken(escrow, re.data())).toBe(true);
      },
    );
  });

  it("without RESOLVER_ROLE a reentrant releaseSigned already fails on the role check (why the cases above grant it)", async () => {
    await fund("funder", K1, D, 0n, rt);
    await fund("funder2", KV, D, 0n);
    victimSig = await signReleaseWith(
      acct.funder2,
      { chainId: anvil.chainId, escrow },
      { missionKey: KV, recipients: [A.attacker], amounts: [D], fee: 0n },
    );
    await mined(as("attacker").rt.write.arm([escrow, reentries.releaseSigned.data()]));
    const { d } = await deltas(rt, [A.alice, A.funder], () => mined(release(K1, "funder", [A.alice], [D], 0n)));
    expect(d).toEqual([D, 0n]);
    const err = await lastReentryError();
    expect([err.errorName, err.args]).toEqual(["AccessControlUnauthorizedAccount", [rt, RESOLVER_ROLE]]);
    await victimIntact();
  });
});
