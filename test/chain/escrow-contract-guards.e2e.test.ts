import { zeroAddress, type Address } from "viem";
import { describe, expect, it } from "vitest";
import type { Anvil } from "../helpers/anvil";
import { ADMIN_DELAY, FEE_CAP_BPS } from "../helpers/escrow-chain";
import {
  A,
  as,
  read,
  mined,
  expectRevert,
  balanceOf,
  deltas,
  args,
  paid,
  fund,
  release,
  useContractChain,
} from "../helpers/escrow-contract";
import { U, missionKey, RESOLVER_ROLE, DEFAULT_ADMIN_ROLE } from "../helpers/escrow-v3";

// On-chain tests of contracts/legacy/MissionEscrowV3.sol on a local anvil (chain id 8453): who may
// call what, the USDC blacklist, and the operator's bounded power (contract v2, kept in v3).
// Set-up: test/helpers/escrow-contract.ts.

let anvil: Anvil;
let usdc: Address;
let rt: Address;
let escrow: Address;
useContractChain((c) => ({ anvil, usdc, rt, escrow } = c));

describe("access control and validation", () => {
  it("release and refund from a non-resolver (admin included) revert AccessControlUnauthorizedAccount", async () => {
    const k = missionKey("mis_roles");
    await fund("funder", k, U(100), 0n);
    for (const who of ["attacker", "admin", "funder"] as const) {
      await expectRevert(release(k, "funder", [A[who]], [U(100)], 0n, who), "AccessControlUnauthorizedAccount", [
        A[who],
        RESOLVER_ROLE,
      ]);
      await expectRevert(as(who).escrow.write.refund([k, A.funder]), "AccessControlUnauthorizedAccount", [
        A[who],
        RESOLVER_ROLE,
      ]);
    }
    expect(await read().depositOf([k, A.funder])).toEqual([usdc, U(100)]);
  });

  it("setTreasury / setFeeCapBps are admin-only and bounded", async () => {
    for (const who of ["attacker", "resolver"] as const) {
      await expectRevert(as(who).escrow.write.setTreasury([A[who]]), "AccessControlUnauthorizedAccount", [
        A[who],
        DEFAULT_ADMIN_ROLE,
      ]);
      await expectRevert(as(who).escrow.write.setFeeCapBps([1000]), "AccessControlUnauthorizedAccount", [
        A[who],
        DEFAULT_ADMIN_ROLE,
      ]);
    }
    // Contract v3: the fee cap only goes down (docs/decisions.md); a higher cap is a new deployment.
    await expectRevert(as("admin").escrow.write.setFeeCapBps([1001]), "CapNotLower");
    await expectRevert(as("admin").escrow.write.setFeeCapBps([FEE_CAP_BPS + 1]), "CapNotLower");
    await expectRevert(as("admin").escrow.write.setTreasury([zeroAddress]), "ZeroAddress");
    const r1 = await mined(as("admin").escrow.write.setFeeCapBps([50]));
    expect(args(r1, "FeeCapChanged")).toEqual([{ feeCapBps: 50 }]);
    await expectRevert(as("admin").escrow.write.setFeeCapBps([FEE_CAP_BPS]), "CapNotLower");
    const r2 = await mined(as("admin").escrow.write.setTreasury([A.fresh]));
    expect(args(r2, "TreasuryChanged")).toEqual([{ treasury: A.fresh }]);
    expect([await read().feeCapBps(), await read().treasury()]).toEqual([50, A.fresh]);
  });

  it("a fee above the cap reverts FeeTooHigh (a zero cap allows no fee)", async () => {
    const k = missionKey("mis_fee");
    await fund("funder", k, U(1000), 0n);
    // cap = 1 % of (paid + fee) = 1 % of 910 = 9.1
    await expectRevert(release(k, "funder", [A.alice], [U(900)], U(10)), "FeeTooHigh", [U(10), 9_100_000n]);
    await mined(as("admin").escrow.write.setFeeCapBps([0]));
    await expectRevert(release(k, "funder", [A.alice], [U(900)], 1n), "FeeTooHigh", [1n, 0n]);
  });

  it("amounts plus fee above the deposit revert ExceedsDeposit", async () => {
    const k = missionKey("mis_exceeds");
    await fund("funder", k, U(1000), 0n);
    await expectRevert(release(k, "funder", [A.alice, A.bob], [U(600), U(400)], 1n), "ExceedsDeposit", [
      U(1000) + 1n,
      U(1000),
    ]);
    await expectRevert(release(k, "funder", [A.alice], [U(1000) + 1n], 0n), "ExceedsDeposit", [U(1000) + 1n, U(1000)]);
  });

  it("empty, mismatched, too many or zero-address recipients revert", async () => {
    const k = missionKey("mis_recipients");
    await fund("funder", k, U(1000), 0n);
    await expectRevert(release(k, "funder", [], [], 0n), "BadRecipients");
    await expectRevert(release(k, "funder", [A.alice, A.bob], [U(1)], 0n), "BadRecipients");
    await expectRevert(release(k, "funder", [A.alice], [U(1), U(1)], 0n), "BadRecipients");
    await expectRevert(release(k, "funder", Array(65).fill(A.alice), Array(65).fill(1n), 0n), "BadRecipients");
    await expectRevert(release(k, "funder", [A.alice, zeroAddress], [U(1), U(1)], 0n), "ZeroAddress");
    await mined(release(k, "funder", Array(64).fill(A.alice), Array(64).fill(1n), 0n)); // 64 is the limit
    expect(await balanceOf(usdc, A.alice)).toBe(64n);
  });
});

describe("blocked recipients (USDC blacklist)", () => {
  it("one of three winners blacklisted: the rest are paid, the blocked winner is credited and withdraws to itself only", async () => {
    const k = missionKey("mis_blocked");
    await fund("funder", k, U(1000), 0n);
    await mined(as("admin").usdc.write.setBlacklisted([A.carol, true]));
    const { receipt, d } = await deltas(usdc, [A.alice, A.bob, A.carol, A.treasury, A.funder, escrow], () =>
      mined(release(k, "funder", [A.alice, A.bob, A.carol], [U(500), U(300), U(100)], U(9))),
    );
    expect(d).toEqual([U(500), U(300), 0n, U(9), U(91), -U(900)]);
    expect(args(receipt, "Credited")).toEqual([{ missionKey: k, token: usdc, to: A.carol, amount: U(100) }]);
    expect(paid(receipt).map(([to]) => to)).toEqual([A.alice, A.bob, A.treasury, A.funder]);
    expect(await read().credits([usdc, A.carol])).toBe(U(100));
    expect(await balanceOf(usdc, escrow)).toBe(U(100));

    // Still blacklisted, carol cannot redirect it to a fresh address: the operator never pays a
    // sanctioned party through another account. The credit waits until the token lets carol receive.
    await expectRevert(as("carol").escrow.write.withdraw([usdc]), "Blacklisted", [A.carol]);
    expect(await read().credits([usdc, A.carol])).toBe(U(100));
    await mined(as("admin").usdc.write.setBlacklisted([A.carol, false]));
    const w = await deltas(usdc, [A.carol, escrow], () => mined(as("carol").escrow.write.withdraw([usdc])));
    expect(w.d).toEqual([U(100), -U(100)]);
    expect(args(w.receipt, "Withdrawn")).toEqual([{ token: usdc, account: A.carol, amount: U(100) }]);
    expect(await read().credits([usdc, A.carol])).toBe(0n);
    await expectRevert(as("carol").escrow.write.withdraw([usdc]), "NothingToWithdraw");
  });

  it("a blacklisted treasury at funding: the spam fee is credited to it and the funding succeeds", async () => {
    const k = missionKey("mis_bl_treasury");
    await mined(as("admin").usdc.write.setBlacklisted([A.treasury, true]));
    const { receipt, d } = await deltas(usdc, [A.funder, A.treasury, escrow], () => fund("funder", k, U(1000), U(5)));
    expect(d).toEqual([-U(1005), 0n, U(1005)]);
    expect(args(receipt, "Funded")).toHaveLength(1);
    expect(args(receipt, "Credited")).toEqual([{ missionKey: k, token: usdc, to: A.treasury, amount: U(5) }]);
    expect(await read().credits([usdc, A.treasury])).toBe(U(5));
    expect(await read().depositOf([k, A.funder])).toEqual([usdc, U(1000)]);
    await mined(as("admin").usdc.write.setBlacklisted([A.treasury, false]));
    const w = await deltas(usdc, [A.treasury], () => mined(as("treasury").escrow.write.withdraw([usdc])));
    expect(w.d).toEqual([U(5)]);
  });

  it("withdraw with nothing credited reverts NothingToWithdraw", async () => {
    await expectRevert(as("attacker").escrow.write.withdraw([usdc]), "NothingToWithdraw");
    await expectRevert(as("attacker").escrow.write.withdraw([rt]), "NothingToWithdraw");
  });

  it("a blacklisted stray funder's reclaim is credited, then withdrawn by itself once it can receive", async () => {
    const k = missionKey("mis_bl_stray");
    await fund("funder", k, U(1000), 0n);
    await fund("funder2", k, U(300), 0n);
    await mined(release(k, "funder", [A.alice], [U(1000)], 0n));
    await mined(as("admin").usdc.write.setBlacklisted([A.funder2, true]));
    const r = await mined(as("funder2").escrow.write.reclaim([k]));
    expect(args(r, "Credited")).toEqual([{ missionKey: k, token: usdc, to: A.funder2, amount: U(300) }]);
    await mined(as("admin").usdc.write.setBlacklisted([A.funder2, false]));
    expect((await deltas(usdc, [A.funder2], () => mined(as("funder2").escrow.write.withdraw([usdc])))).d).toEqual([
      U(300),
    ]);
    await expectRevert(as("funder2").escrow.write.reclaim([k]), "NotFunded", [k, A.funder2]);
  });
});

describe("contract v2 (kept in v3): bounded operator power", () => {
  const later = async (seconds: number) => {
    await anvil.testClient.increaseTime({ seconds });
    await anvil.testClient.mine({ blocks: 1 });
  };
  const now = async () => Number((await anvil.publicClient.getBlock()).timestamp);

  it("the admin changes by a two-step transfer that takes effect only after the delay", async () => {
    expect(await read().defaultAdmin()).toBe(A.admin);
    expect(await read().defaultAdminDelay()).toBe(ADMIN_DELAY);
    await mined(as("admin").escrow.write.beginDefaultAdminTransfer([A.fresh]));
    await expectRevert(as("fresh").escrow.write.acceptDefaultAdminTransfer(), "AccessControlEnforcedDefaultAdminDelay");
    await expectRevert(as("attacker").escrow.write.acceptDefaultAdminTransfer(), "AccessControlInvalidDefaultAdmin", [
      A.attacker,
    ]);
    await later(ADMIN_DELAY + 10);
    await mined(as("fresh").escrow.write.acceptDefaultAdminTransfer());
    expect(await read().defaultAdmin()).toBe(A.fresh);
    expect(await read().hasRole([DEFAULT_ADMIN_ROLE, A.admin])).toBe(false);
    await expectRevert(as("admin").escrow.write.setFeeCapBps([0]), "AccessControlUnauthorizedAccount", [
      A.admin,
      DEFAULT_ADMIN_ROLE,
    ]);
  });

  it("the admin cannot make itself resolver at once: grantRole is refused, a proposal waits the delay", async () => {
    await expectRevert(as("admin").escrow.write.grantRole([RESOLVER_ROLE, A.admin]), "UseProposeResolver");
    await mined(as("admin").escrow.write.proposeResolver([A.admin]));
    await expectRevert(as("admin").escrow.write.activateResolver(), "ResolverNotReady");
    const k = missionKey("mis_v2_resolver");
    await fund("funder", k, U(100), 0n);
    await expectRevert(release(k, "funder", [A.admin], [U(100)], 0n, "admin"), "AccessControlUnauthorizedAccount", [
      A.admin,
      RESOLVER_ROLE,
    ]);
    await later(ADMIN_DELAY + 10); // the funder saw ResolverProposed and had the whole delay to leave
    await mined(as("attacker").escrow.write.activateResolver());
    expect(await read().hasRole([RESOLVER_ROLE, A.admin])).toBe(true);
    await expectRevert(as("attacker").escrow.write.proposeResolver([A.attacker]), "AccessControlUnauthorizedAccount", [
      A.attacker,
      DEFAULT_ADMIN_ROLE,
    ]);
  });

  it("a funder takes an unreleased deposit back itself after the refund-after time fixed at funding, not before", async () => {
    const k = missionKey("mis_v2_self");
    const refundAfter = BigInt((await now()) + 10_000);
    await mined(
      as("funder")
        .erc20(usdc)
        .write.approve([escrow, U(1005)]),
    );
    const r = await mined(as("funder").escrow.write.fundUntil([k, usdc, U(1000), U(5), refundAfter]));
    expect(args(r, "Funded")).toEqual([
      { missionKey: k, funder: A.funder, token: usdc, amount: U(1000), spamFee: U(5), refundAfter },
    ]);
    expect(await read().refundAfterOf([k, A.funder])).toBe(refundAfter);
    await expectRevert(as("funder").escrow.write.selfRefund([k]), "RefundNotYet", [refundAfter]);
    await expectRevert(as("attacker").escrow.write.selfRefund([k]), "NotFunded", [k, A.attacker]); // its funder alone
    await later(10_000);
    const { receipt, d } = await deltas(usdc, [A.funder, A.treasury, escrow], () =>
      mined(as("funder").escrow.write.selfRefund([k])),
    );
    expect(d).toEqual([U(1000), 0n, -U(1000)]); // the spam fee stays with the treasury
    expect(args(receipt, "SelfRefunded")).toEqual([{ missionKey: k, funder: A.funder, token: usdc, amount: U(1000) }]);
    await expectRevert(release(k, "funder", [A.alice], [U(1000)], 0n), "NotFunded", [k, A.funder]); // nothing left to release
  });

  it("a released slot cannot be self-refunded; refund-after must be in the future and within two years; fund() defaults to a year", async () => {
    const k = missionKey("mis_v2_released");
    await fund("funder", k, U(100), 0n);
    expect(await read().refundAfterOf([k, A.funder])).toBe(BigInt((await now()) + 365 * 86_400));
    await mined(release(k, "funder", [A.alice], [U(100)], 0n));
    await later(366 * 86_400);
    await expectRevert(as("funder").escrow.write.selfRefund([k]), "NotFunded", [k, A.funder]);
    await mined(
      as("funder")
        .erc20(usdc)
        .write.approve([escrow, U(10)]),
    );
    const t0 = await now();
    await expectRevert(
      as("funder").escrow.write.fundUntil([missionKey("mis_v2_past"), usdc, U(10), 0n, BigInt(t0)]),
      "BadRefundAfter",
    );
    await expectRevert(
      as("funder").escrow.write.fundUntil([missionKey("mis_v2_far"), usdc, U(10), 0n, BigInt(t0 + 3 * 365 * 86_400)]),
      "BadRefundAfter",
    );
  });

  it("the admin sweeps only the surplus (tokens sent outside fund), never a slot or a credit", async () => {
    const k = missionKey("mis_v2_sweep");
    await fund("funder", k, U(1000), 0n);
    const kc = missionKey("mis_v2_credit");
    await fund("funder2", kc, U(100), 0n);
    await mined(as("admin").usdc.write.setBlacklisted([A.carol, true]));
    await mined(release(kc, "funder2", [A.carol], [U(100)], 0n)); // credited to carol
    await expectRevert(as("admin").escrow.write.sweep([usdc, A.fresh]), "NothingToWithdraw"); // nothing surplus yet
    await mined(
      as("attacker")
        .erc20(usdc)
        .write.transfer([escrow, U(7)]),
    ); // sent outside fund()
    expect(await read().held([usdc])).toBe(U(1100));
    await expectRevert(as("attacker").escrow.write.sweep([usdc, A.attacker]), "AccessControlUnauthorizedAccount", [
      A.attacker,
      DEFAULT_ADMIN_ROLE,
    ]);
    const { d } = await deltas(usdc, [A.fresh, escrow], () => mined(as("admin").escrow.write.sweep([usdc, A.fresh])));
    expect(d).toEqual([U(7), -U(7)]);
    await expectRevert(as("admin").escrow.write.sweep([usdc, A.fresh]), "NothingToWithdraw");
    // The slot and the credit are whole and still pay out in full.
    expect(await read().depositOf([k, A.funder])).toEqual([usdc, U(1000)]);
    expect(await read().credits([usdc, A.carol])).toBe(U(100));
    await mined(release(k, "funder", [A.alice], [U(1000)], 0n));
    await mined(as("admin").usdc.write.setBlacklisted([A.carol, false]));
    await mined(as("carol").escrow.write.withdraw([usdc]));
    expect(await balanceOf(usdc, escrow)).toBe(0n);
    expect(await read().held([usdc])).toBe(0n);
  });
});
