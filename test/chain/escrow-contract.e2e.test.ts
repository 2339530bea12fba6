import { zeroAddress, type Address } from "viem";
import { describe, expect, it } from "vitest";
import type { Anvil } from "../helpers/anvil";
import { FEE_CAP_BPS } from "../helpers/escrow-chain";
import {
  A,
  MINT,
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
  signPermit,
  useContractChain,
} from "../helpers/escrow-contract";
import { U, missionKey, RESOLVER_ROLE, DEFAULT_ADMIN_ROLE } from "../helpers/escrow-v3";

// On-chain tests of contracts/legacy/MissionEscrowV3.sol on a local anvil (chain id 8453): funding,
// release and refund (test/helpers/escrow-contract.ts sets up the chain, a snapshot around each
// test). Access control, blocked recipients and the bounded operator power:
// escrow-contract-guards.e2e.test.ts; reentrancy: escrow-contract-reentrancy.e2e.test.ts.

let anvil: Anvil;
let usdc: Address;
let escrow: Address;
useContractChain((c) => ({ anvil, usdc, escrow } = c));

describe("funding", () => {
  it("deploys with the configured roles, treasury and fee cap", async () => {
    expect(await read().hasRole([RESOLVER_ROLE, A.resolver])).toBe(true);
    expect(await read().hasRole([DEFAULT_ADMIN_ROLE, A.admin])).toBe(true);
    expect(await read().hasRole([RESOLVER_ROLE, A.admin])).toBe(false);
    expect(await read().RESOLVER_ROLE()).toBe(RESOLVER_ROLE);
    expect(await read().treasury()).toBe(A.treasury);
    expect(await read().feeCapBps()).toBe(FEE_CAP_BPS);
  });

  it("approve + fund: escrows the deposit, pays the spam fee to the treasury at once, emits Funded", async () => {
    const k = missionKey("mis_fund");
    const { receipt, d } = await deltas(usdc, [A.funder, A.treasury, escrow], () => fund("funder", k, U(1000), U(5)));
    expect(d).toEqual([-U(1005), U(5), U(1000)]);
    expect(await read().depositOf([k, A.funder])).toEqual([usdc, U(1000)]);
    expect(args(receipt, "Funded")).toMatchObject([
      { missionKey: k, funder: A.funder, token: usdc, amount: U(1000), spamFee: U(5) },
    ]);
    expect(args(receipt, "Paid")).toEqual([{ missionKey: k, token: usdc, to: A.treasury, amount: U(5) }]);
    expect(await as("funder").erc20(usdc).read.allowance([A.funder, escrow])).toBe(0n);
    expect(await read().released([k])).toBe(false);
  });

  it("fundWithPermit with a real EIP-2612 signature needs no prior approve", async () => {
    const k = missionKey("mis_permit");
    expect(await as("funder").erc20(usdc).read.allowance([A.funder, escrow])).toBe(0n);
    const p = await signPermit("funder", U(1005));
    const { receipt, d } = await deltas(usdc, [A.funder, A.treasury, escrow], () =>
      mined(as("funder").escrow.write.fundWithPermit([k, usdc, U(1000), U(5), p.deadline, p.v, p.r, p.s])),
    );
    expect(d).toEqual([-U(1005), U(5), U(1000)]);
    expect(args(receipt, "Funded")).toMatchObject([
      { missionKey: k, funder: A.funder, token: usdc, amount: U(1000), spamFee: U(5) },
    ]);
    expect(await read().depositOf([k, A.funder])).toEqual([usdc, U(1000)]);
    expect(await as("funder").usdc.read.nonces([A.funder])).toBe(1n);
    expect(await as("funder").erc20(usdc).read.allowance([A.funder, escrow])).toBe(0n);
  });

  it("fundUntilWithPermit: one signature, the mission's refund-after, the funding time recorded (contract v3)", async () => {
    const k = missionKey("mis_permit_until");
    const p = await signPermit("funder", U(1005));
    const refundAfter = (await anvil.publicClient.getBlock()).timestamp + 20n * 86_400n;
    const receipt = await mined(
      as("funder").escrow.write.fundUntilWithPermit([k, usdc, U(1000), U(5), refundAfter, p.deadline, p.v, p.r, p.s]),
    );
    expect(args(receipt, "Funded")).toEqual([
      { missionKey: k, funder: A.funder, token: usdc, amount: U(1000), spamFee: U(5), refundAfter },
    ]);
    const t = (await anvil.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
    expect([await read().refundAfterOf([k, A.funder]), await read().fundedAtOf([k, A.funder])]).toEqual([
      refundAfter,
      t,
    ]);
    // The same permit again is spent (nonce used): ignored, and without an allowance the funding reverts.
    await expectRevert(
      as("funder").escrow.write.fundUntilWithPermit([
        missionKey("mis_permit_until_2"),
        usdc,
        U(1000),
        U(5),
        refundAfter,
        p.deadline,
        p.v,
        p.r,
        p.s,
      ]),
      "ERC20InsufficientAllowance",
    );
  });

  it("a front-run permit (already submitted by someone else) still funds", async () => {
    const k = missionKey("mis_frontrun");
    const p = await signPermit("funder", U(1005));
    await mined(as("attacker").usdc.write.permit([A.funder, escrow, U(1005), p.deadline, p.v, p.r, p.s]));
    expect(await as("funder").erc20(usdc).read.allowance([A.funder, escrow])).toBe(U(1005));
    const { receipt, d } = await deltas(usdc, [A.funder, A.treasury, escrow], () =>
      mined(as("funder").escrow.write.fundWithPermit([k, usdc, U(1000), U(5), p.deadline, p.v, p.r, p.s])),
    );
    expect(d).toEqual([-U(1005), U(5), U(1000)]);
    expect(args(receipt, "Funded")).toHaveLength(1);
    expect(await read().depositOf([k, A.funder])).toEqual([usdc, U(1000)]);
  });

  it("a permit signed for less than amount + fee is ignored and the allowance check reverts", async () => {
    const p = await signPermit("funder", U(1000)); // forgot the spam fee
    await expectRevert(
      as("funder").escrow.write.fundWithPermit([
        missionKey("mis_badpermit"),
        usdc,
        U(1000),
        U(5),
        p.deadline,
        p.v,
        p.r,
        p.s,
      ]),
      "ERC20InsufficientAllowance",
      [escrow, 0n, U(1005)],
    );
  });

  it("zero token or zero amount reverts", async () => {
    await expectRevert(as("funder").escrow.write.fund([missionKey("mis_z"), zeroAddress, U(1), 0n]), "ZeroAddress");
    await expectRevert(as("funder").escrow.write.fund([missionKey("mis_z"), usdc, 0n, U(1)]), "ZeroAmount");
  });
});

describe("release", () => {
  it("to one winner: the winner is paid, the excess deposit returns to the funder", async () => {
    const k = missionKey("mis_one");
    await fund("funder", k, U(1000), U(5));
    const { receipt, d } = await deltas(usdc, [A.alice, A.funder, A.treasury, escrow], () =>
      mined(release(k, "funder", [A.alice], [U(800)], 0n)),
    );
    expect(d).toEqual([U(800), U(200), 0n, -U(1000)]);
    expect(args(receipt, "Released")).toEqual([
      { missionKey: k, funder: A.funder, token: usdc, paid: U(800), fee: 0n, returned: U(200) },
    ]);
    expect(args(receipt, "Paid")).toEqual([
      { missionKey: k, token: usdc, to: A.alice, amount: U(800) },
      { missionKey: k, token: usdc, to: A.funder, amount: U(200) },
    ]);
    expect(await read().released([k])).toBe(true);
    expect(await read().depositOf([k, A.funder])).toEqual([zeroAddress, 0n]);
  });

  it("to three winners with a fee: winners, treasury and the funder's excess are each paid exactly", async () => {
    const k = missionKey("mis_three");
    await fund("funder", k, U(1000), 0n);
    const { receipt, d } = await deltas(usdc, [A.alice, A.bob, A.carol, A.treasury, A.funder, escrow], () =>
      mined(release(k, "funder", [A.alice, A.bob, A.carol], [U(500), U(300), U(100)], U(9))),
    );
    expect(d).toEqual([U(500), U(300), U(100), U(9), U(91), -U(1000)]);
    expect(args(receipt, "Released")).toEqual([
      { missionKey: k, funder: A.funder, token: usdc, paid: U(900), fee: U(9), returned: U(91) },
    ]);
    expect(paid(receipt)).toEqual([
      [A.alice, U(500)],
      [A.bob, U(300)],
      [A.carol, U(100)],
      [A.treasury, U(9)],
      [A.funder, U(91)],
    ]);
    expect(args(receipt, "Credited")).toEqual([]);
  });

  it("a fee of exactly the cap over (paid + fee) passes; nothing returned means no Paid to the funder", async () => {
    const k = missionKey("mis_cap");
    await fund("funder", k, U(1000), 0n);
    const { receipt, d } = await deltas(usdc, [A.alice, A.treasury, A.funder], () =>
      mined(release(k, "funder", [A.alice], [U(990)], U(10))),
    );
    expect(d).toEqual([U(990), U(10), 0n]);
    expect(paid(receipt).map(([to]) => to)).toEqual([A.alice, A.treasury]);
  });

  it("a key releases once: again, from a second funder's slot, or funding it afterwards reverts AlreadyReleased", async () => {
    const k = missionKey("mis_once");
    await fund("funder", k, U(1000), 0n);
    await fund("funder2", k, U(400), 0n);
    await mined(release(k, "funder", [A.alice], [U(1000)], 0n));
    await expectRevert(release(k, "funder", [A.alice], [U(1000)], 0n), "AlreadyReleased", [k]);
    await expectRevert(release(k, "funder2", [A.alice], [U(400)], 0n), "AlreadyReleased", [k]);
    await mined(
      as("attacker")
        .erc20(usdc)
        .write.approve([escrow, U(10)]),
    );
    await expectRevert(as("attacker").escrow.write.fund([k, usdc, U(10), 0n]), "AlreadyReleased", [k]);
    expect(await read().depositOf([k, A.funder2])).toEqual([usdc, U(400)]);
    expect(await balanceOf(usdc, A.alice)).toBe(U(1000));
  });
});

describe("refund and reclaim", () => {
  it("refund after a void returns the whole deposit; the spam fee stays with the treasury", async () => {
    const k = missionKey("mis_void");
    await fund("funder", k, U(1000), U(5));
    const { receipt, d } = await deltas(usdc, [A.funder, A.treasury, escrow], () =>
      mined(as("resolver").escrow.write.refund([k, A.funder])),
    );
    expect(d).toEqual([U(1000), 0n, -U(1000)]);
    expect(await balanceOf(usdc, A.funder)).toBe(MINT - U(5));
    expect(await balanceOf(usdc, A.treasury)).toBe(U(5));
    expect(args(receipt, "Refunded")).toEqual([{ missionKey: k, funder: A.funder, token: usdc, amount: U(1000) }]);
    expect(args(receipt, "Paid")).toEqual([{ missionKey: k, token: usdc, to: A.funder, amount: U(1000) }]);
    expect(await read().depositOf([k, A.funder])).toEqual([zeroAddress, 0n]);
  });

  it("refund of an empty slot, or of a slot already released, reverts NotFunded", async () => {
    const k = missionKey("mis_nf");
    await expectRevert(as("resolver").escrow.write.refund([k, A.funder]), "NotFunded", [k, A.funder]);
    await fund("funder", k, U(100), 0n);
    await mined(release(k, "funder", [A.alice], [U(100)], 0n));
    await expectRevert(as("resolver").escrow.write.refund([k, A.funder]), "NotFunded", [k, A.funder]);
    await expectRevert(release(missionKey("mis_nf2"), "funder", [A.alice], [1n], 0n), "NotFunded", [
      missionKey("mis_nf2"),
      A.funder,
    ]);
  });

  it("one slot per funder: the same funder cannot fund a key twice, a different funder can", async () => {
    const k = missionKey("mis_slots");
    await fund("funder", k, U(100), 0n);
    await mined(
      as("funder")
        .erc20(usdc)
        .write.approve([escrow, U(50)]),
    );
    await expectRevert(as("funder").escrow.write.fund([k, usdc, U(50), 0n]), "AlreadyFunded", [k, A.funder]);
    await fund("funder2", k, U(50), 0n);
    expect(await read().depositOf([k, A.funder])).toEqual([usdc, U(100)]);
    expect(await read().depositOf([k, A.funder2])).toEqual([usdc, U(50)]);
  });

  it("a stray slot: reclaim before release reverts NotReleased; after release the stray funder reclaims once", async () => {
    const k = missionKey("mis_stray");
    await fund("funder", k, U(1000), 0n);
    await fund("funder2", k, U(300), U(1));
    await expectRevert(as("funder2").escrow.write.reclaim([k]), "NotReleased", [k]);
    await mined(release(k, "funder", [A.alice], [U(1000)], 0n));
    const { receipt, d } = await deltas(usdc, [A.funder2, escrow], () =>
      mined(as("funder2").escrow.write.reclaim([k])),
    );
    expect(d).toEqual([U(300), -U(300)]);
    expect(args(receipt, "Reclaimed")).toEqual([{ missionKey: k, funder: A.funder2, token: usdc, amount: U(300) }]);
    await expectRevert(as("funder2").escrow.write.reclaim([k]), "NotFunded", [k, A.funder2]);
    await expectRevert(as("funder").escrow.write.reclaim([k]), "NotFunded", [k, A.funder]); // the released slot
    expect(await balanceOf(usdc, escrow)).toBe(0n);
  });

  it("the resolver can refund a stray slot before and after the release", async () => {
    const k = missionKey("mis_stray_refund");
    await fund("funder", k, U(1000), 0n);
    await fund("funder2", k, U(300), 0n);
    await fund("attacker", k, U(7), 0n);
    let r = await deltas(usdc, [A.funder2], () => mined(as("resolver").escrow.write.refund([k, A.funder2])));
    expect(r.d).toEqual([U(300)]);
    await mined(release(k, "funder", [A.alice], [U(1000)], 0n));
    r = await deltas(usdc, [A.attacker], () => mined(as("resolver").escrow.write.refund([k, A.attacker])));
    expect(r.d).toEqual([U(7)]);
    expect(await balanceOf(usdc, escrow)).toBe(0n);
  });
});
