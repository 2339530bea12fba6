import { getAddress, parseEventLogs, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { missionEscrowV3Abi as missionEscrowAbi } from "../../src/lib/abi/mission-escrow-v3";
import { ADMIN_DELAY, CAP_PERIOD, RELEASE_DELAY, type EscrowChain } from "../helpers/escrow-chain";
import {
  DEFAULT_ADMIN_ROLE,
  GUARDIAN_ROLE,
  RESOLVER_ROLE,
  U,
  escrowAs,
  expectRevert,
  extraAccount,
  mined,
  missionKey,
  now,
  revertOf,
  useV3Chain,
} from "../helpers/escrow-v3";

// Contract v3 (docs/base-rail.md "Trust model"): exits during governance changes, and what a stolen
// resolver key alone can do.

let chain: EscrowChain;
useV3Chain((c) => {
  chain = c;
});
const early = extraAccount(0);
const early2 = extraAccount(1);
const late = extraAccount(2);
const attackerAddr = extraAccount(3).address;
const newAdmin = extraAccount(4);
const E = (who = chain.admin) => escrowAs(chain, who);
const far = async () => (await now(chain)) + 30n * 86_400n;
const fund = async (who: typeof early, k: Hex, amount: bigint) =>
  chain.fund(who, k, amount, 0n, { refundAfter: await far() });
const events = (r: { logs: readonly unknown[] }) =>
  parseEventLogs({ abi: missionEscrowAbi, logs: r.logs as never }).map((l) => l.eventName);
const K = { early: missionKey("gov_early"), early2: missionKey("gov_early_2"), late: missionKey("gov_late") };

/** Funds two early slots, runs `propose` (a governance change), funds a late slot; returns the proposal time. */
async function aroundProposal(propose: () => Promise<Hex>): Promise<bigint> {
  await fund(early, K.early, U(100));
  await fund(early2, K.early2, U(100));
  await expectRevert(E(early).write.selfRefund([K.early]), "RefundNotYet"); // nothing pending yet
  const r = await mined(chain, propose());
  const t = (await chain.anvil.publicClient.getBlock({ blockNumber: r.blockNumber })).timestamp;
  await chain.increaseTime(5);
  await fund(late, K.late, U(100));
  expect(await E().read.governancePendingSince()).toBe(t);
  return t;
}

/** During the pending change: an early slot self-refunds at once, a late one cannot. */
async function exitsWhilePending() {
  const before = await chain.usdcBalance(early.address);
  const r = await mined(chain, E(early).write.selfRefund([K.early]));
  expect(events(r)).toEqual(["SelfRefunded", "Paid"]);
  expect((await chain.usdcBalance(early.address)) - before).toBe(U(100));
  await expectRevert(E(late).write.selfRefund([K.late]), "RefundNotYet");
}

/** After the change is cancelled or dead: nothing pending, no early exit any more. */
async function nothingPending() {
  expect(await E().read.governancePendingSince()).toBe(0n);
  await expectRevert(E(early2).write.selfRefund([K.early2]), "RefundNotYet");
  await expectRevert(E(late).write.selfRefund([K.late]), "RefundNotYet");
}

describe("exits while a governance change is pending", () => {
  it("a resolver proposal: slots funded earlier self-refund, later ones cannot; after a cancel nothing changes", async () => {
    // The scenario of a compromised admin: revoke the resolver (immediate), propose an attacker.
    await mined(chain, E().write.revokeRole([RESOLVER_ROLE, chain.resolver.address]));
    await aroundProposal(() => E().write.proposeResolver([attackerAddr]));
    await exitsWhilePending();
    await expectRevert(E(chain.resolver).write.cancelResolverProposal(), "AccessControlUnauthorizedAccount");
    const r = await mined(chain, E().write.cancelResolverProposal());
    const [ev] = parseEventLogs({ abi: missionEscrowAbi, logs: r.logs, eventName: "ResolverProposalCancelled" });
    expect(ev!.args.resolver).toBe(getAddress(attackerAddr));
    await nothingPending();
    await chain.increaseTime(ADMIN_DELAY + 1);
    await expectRevert(E(late).write.activateResolver(), "ZeroAddress"); // nothing to activate
    expect(await E().read.hasRole([RESOLVER_ROLE, attackerAddr])).toBe(false);
  });

  it("a guardian proposal likewise; grantRole(GUARDIAN_ROLE) is refused, activation waits the admin delay", async () => {
    await expectRevert(E().write.grantRole([GUARDIAN_ROLE, attackerAddr]), "UseProposeGuardian");
    await aroundProposal(() => E().write.proposeGuardian([attackerAddr]));
    await exitsWhilePending();
    await expectRevert(E(late).write.activateGuardian(), "GuardianNotReady");
    await chain.increaseTime(ADMIN_DELAY);
    const r = await mined(chain, E(late).write.activateGuardian()); // anyone activates after the delay
    // One guardian at a time: the new one replaces the old.
    expect(events(r)).toEqual(["RoleRevoked", "RoleGranted", "GuardianActivated"]);
    expect(await E().read.hasRole([GUARDIAN_ROLE, attackerAddr])).toBe(true);
    expect(await E().read.hasRole([GUARDIAN_ROLE, chain.guardian.address])).toBe(false);
    expect(await E().read.activeGuardian()).toBe(getAddress(attackerAddr));
    await nothingPending();
  });

  it("the admin cannot remove the guardian at once (the veto goes only through a proposal); the guardian may renounce", async () => {
    await expectRevert(E().write.revokeRole([GUARDIAN_ROLE, chain.guardian.address]), "UseProposeGuardian");
    expect(await E().read.hasRole([GUARDIAN_ROLE, chain.guardian.address])).toBe(true);
    await mined(chain, E(chain.guardian).write.renounceRole([GUARDIAN_ROLE, chain.guardian.address]));
    expect(await E().read.hasRole([GUARDIAN_ROLE, chain.guardian.address])).toBe(false);
    // The admin's way to a new guardian: a proposal, which opens the funders' exits meanwhile.
    await aroundProposal(() => E().write.proposeGuardian([attackerAddr]));
    await exitsWhilePending();
  });

  it("a guardian proposal is cancelled by the admin", async () => {
    await aroundProposal(() => E().write.proposeGuardian([attackerAddr]));
    const r = await mined(chain, E().write.cancelGuardianProposal());
    expect(events(r)).toEqual(["GuardianProposalCancelled"]);
    await nothingPending();
  });

  it("a begun admin transfer likewise, until it is cancelled", async () => {
    await aroundProposal(() => E().write.beginDefaultAdminTransfer([newAdmin.address]));
    await exitsWhilePending();
    await mined(chain, E().write.cancelDefaultAdminTransfer());
    await nothingPending();
  });

  it("a scheduled admin-delay change likewise, until it takes effect or is rolled back", async () => {
    await aroundProposal(() => E().write.changeDefaultAdminDelay([ADMIN_DELAY * 2]));
    await exitsWhilePending();
    await mined(chain, E().write.rollbackDefaultAdminDelay());
    await nothingPending();
    await mined(chain, E().write.changeDefaultAdminDelay([ADMIN_DELAY * 2]));
    expect(await E().read.governancePendingSince()).not.toBe(0n);
    const [, schedule] = await E().read.pendingDefaultAdminDelay();
    await chain.increaseTime(Number(BigInt(schedule) - (await now(chain))) + 1);
    expect(await E().read.defaultAdminDelay()).toBe(ADMIN_DELAY * 2);
    await nothingPending();
  });

  it("accepting a new admin kills pending resolver and guardian proposals", async () => {
    await mined(chain, E().write.proposeResolver([attackerAddr]));
    await mined(chain, E().write.proposeGuardian([attackerAddr]));
    await mined(chain, E().write.beginDefaultAdminTransfer([newAdmin.address]));
    await chain.increaseTime(ADMIN_DELAY + 1);
    const r = await mined(chain, E(newAdmin).write.acceptDefaultAdminTransfer());
    expect(events(r)).toEqual(
      expect.arrayContaining(["ResolverProposalCancelled", "GuardianProposalCancelled", "RoleGranted", "RoleRevoked"]),
    );
    expect(await E().read.governancePendingSince()).toBe(0n);
    await expectRevert(E(late).write.activateResolver(), "ZeroAddress");
    await expectRevert(E(late).write.activateGuardian(), "ZeroAddress");
    expect(await E().read.defaultAdmin()).toBe(getAddress(newAdmin.address));
  });
});

describe("a stolen resolver key tries every path", () => {
  it("moves nothing to itself before the window and never more than the cap; the guardian's cancel and pause stop it", async () => {
    const CAP = U(150);
    await mined(chain, E().write.lowerReleaseCap([chain.usdc, CAP]));
    const funders = [early, early2, late];
    const keys = funders.map((_, i) => missionKey(`stolen_${i}`));
    for (const [i, f] of funders.entries()) await fund(f, keys[i]!, U(100));
    const thief = chain.resolver; // the attacker holds only this key
    const T = escrowAs(chain, thief);
    const taken = async () => (await chain.usdcBalance(attackerAddr)) + (await chain.usdcBalance(thief.address));
    const steps: bigint[] = [];
    const check = async (max: bigint) => {
      const t = await taken();
      steps.push(t);
      expect(t).toBeLessThanOrEqual(max);
    };
    const to = [attackerAddr];
    const all = [U(100)];

    // 1. Path 1 without the funder: forged, empty, replayed and self-made signatures.
    const forged = await chain.signRelease(thief, {
      missionKey: keys[0]!,
      funder: early.address,
      recipients: to,
      amounts: all,
      fee: 0n,
    });
    const legit = await chain.signRelease(early, {
      missionKey: keys[0]!,
      recipients: [early2.address],
      amounts: all,
      fee: 0n,
    });
    for (const sig of [forged, legit, "0x" as Hex, `0x${"11".repeat(65)}` as Hex]) {
      await expectRevert(T.write.releaseSigned([keys[0]!, early.address, to, all, 0n, sig]), "BadFunderSignature");
    }
    await expectRevert(T.write.releaseSigned([keys[1]!, early2.address, to, all, 0n, legit]), "BadFunderSignature");
    await check(0n);

    // 2. Path 2 at once: proposed, not executable before the window.
    for (const [i, f] of funders.entries())
      await mined(chain, T.write.proposeRelease([keys[i]!, f.address, to, all, 0n]));
    for (const [i, f] of funders.entries()) {
      await expectRevert(T.write.executeRelease([keys[i]!, f.address, to, all, 0n]), "ReleaseNotReady");
    }
    await chain.increaseTime(RELEASE_DELAY - 10);
    await expectRevert(T.write.executeRelease([keys[0]!, early.address, to, all, 0n]), "ReleaseNotReady");
    await check(0n);

    // 3. The guardian watches ReleaseProposed and cancels one to a stranger; the slot stays funded.
    await mined(chain, escrowAs(chain, chain.guardian).write.cancelRelease([keys[2]!, late.address]));
    expect(await T.read.depositOf([keys[2]!, late.address])).toEqual([getAddress(chain.usdc), U(100)]);

    // 4. After the window: the cap bounds it (one 100 fits in 150, the second does not).
    await chain.increaseTime(20);
    const p0 = await revertOf(T.write.executeRelease([keys[0]!, early.address, to, all, 0n]));
    const p1 = await revertOf(T.write.executeRelease([keys[1]!, early2.address, to, all, 0n]));
    expect([p0, p1?.name]).toEqual([null, "CapExceeded"]);
    await expectRevert(T.write.executeRelease([keys[2]!, late.address, to, all, 0n]), "NoProposal");
    await check(CAP);

    // 5. Everything else the key could try.
    await mined(chain, T.write.refund([keys[2]!, late.address])); // pays the slot's own funder only
    await check(CAP);
    const denied: [string, () => Promise<unknown>][] = [
      ["grant resolver", () => T.write.grantRole([RESOLVER_ROLE, attackerAddr])],
      ["grant guardian", () => T.write.grantRole([GUARDIAN_ROLE, thief.address])],
      ["revoke guardian", () => T.write.revokeRole([GUARDIAN_ROLE, chain.guardian.address])],
      ["grant admin", () => T.write.grantRole([DEFAULT_ADMIN_ROLE, thief.address])],
      ["propose resolver", () => T.write.proposeResolver([attackerAddr])],
      ["propose guardian", () => T.write.proposeGuardian([thief.address])],
      ["begin admin", () => T.write.beginDefaultAdminTransfer([thief.address])],
      ["cancel", () => T.write.cancelRelease([keys[1]!, early2.address])],
      ["pause", () => T.write.pause()],
      ["unpause", () => T.write.unpause()],
      ["sweep", () => T.write.sweep([chain.usdc, thief.address])],
      ["treasury", () => T.write.setTreasury([thief.address])],
      ["fee cap", () => T.write.setFeeCapBps([1000])],
      ["cap", () => T.write.lowerReleaseCap([chain.usdc, 0n])],
      ["withdraw", () => T.write.withdraw([chain.usdc])],
      ["reclaim", () => T.write.reclaim([keys[1]!])],
      ["self refund", () => T.write.selfRefund([keys[1]!])],
    ];
    for (const [what, tx] of denied) expect(await revertOf(tx()), what).not.toBeNull();
    await check(CAP);

    // 6. A new window: the guardian has paused releases; the cap would have allowed another 150.
    await mined(chain, escrowAs(chain, chain.guardian).write.pause());
    await chain.increaseTime(CAP_PERIOD);
    await expectRevert(T.write.executeRelease([keys[1]!, early2.address, to, all, 0n]), "EnforcedPause");
    await expectRevert(T.write.proposeRelease([keys[1]!, early2.address, to, all, 0n]), "EnforcedPause");
    // 7. Emergency rotation: the admin revokes the role at once; the key can do nothing any more.
    await mined(chain, E().write.revokeRole([RESOLVER_ROLE, thief.address]));
    await mined(chain, escrowAs(chain, chain.guardian).write.unpause());
    await mined(chain, escrowAs(chain, chain.guardian).write.cancelRelease([keys[1]!, early2.address]));
    await expectRevert(
      T.write.proposeRelease([keys[1]!, early2.address, to, all, 0n]),
      "AccessControlUnauthorizedAccount",
    );
    await expectRevert(T.write.refund([keys[1]!, early2.address]), "AccessControlUnauthorizedAccount");
    await check(CAP);
    expect(steps.slice(0, 2)).toEqual([0n, 0n]);
    expect(steps.at(-1)).toBe(U(100));
    // The funder of the remaining slot still owns it: its exit is unchanged.
    expect(await T.read.depositOf([keys[1]!, early2.address])).toEqual([getAddress(chain.usdc), U(100)]);
  });
});
