import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  hashTypedData,
  parseAbi,
  parseEventLogs,
  type Address,
  type Hex,
} from "viem";
import { describe, expect, it } from "vitest";
import { missionEscrowV3Abi as missionEscrowAbi } from "../../src/lib/abi/mission-escrow-v3";
import { CAP_PERIOD, RELEASE_DELAY, RELEASE_TYPES, USDC_RELEASE_CAP, type EscrowChain } from "../helpers/escrow-chain";
import { U, escrowAs, expectRevert, extraAccount, mined, missionKey, now, useV3Chain } from "../helpers/escrow-v3";

// Contract v3, the two release paths (docs/base-rail.md "Trust model"): the funder-signed release
// (EIP-712, EOA and ERC-1271) and the delayed release (propose, challenge window, anyone executes,
// guardian cancel and pause, per-period cap).

let chain: EscrowChain;
useV3Chain((c) => {
  chain = c;
});
const funder = extraAccount(0);
const funder2 = extraAccount(1);
const stranger = extraAccount(2);
const alice = extraAccount(3).address;
const bob = extraAccount(4).address;
const usdc = () => getAddress(chain.usdc);
const E = (who = chain.resolver) => escrowAs(chain, who);
const far = async () => (await now(chain)) + 30n * 86_400n;
const fund = async (who: typeof funder, k: Hex, amount: bigint) =>
  chain.fund(who, k, amount, 0n, { refundAfter: await far() });
const events = (r: { logs: readonly unknown[] }) =>
  parseEventLogs({ abi: missionEscrowAbi, logs: r.logs as never }).map((l) => l.eventName);

describe("path 1: releaseSigned (the funder's EIP-712 signature)", () => {
  it("pays with an EOA funder's signature made by viem signTypedData; releaseDigest matches viem's hash", async () => {
    const k = missionKey("mis_sig_eoa");
    await fund(funder, k, U(100));
    const terms = { missionKey: k, recipients: [alice, bob], amounts: [U(60), U(39)], fee: U(1) };
    const sig = await chain.signRelease(funder, terms);
    const digest = hashTypedData({
      domain: { name: "MissionEscrow", version: "3", chainId: chain.anvil.chainId, verifyingContract: chain.escrow },
      types: RELEASE_TYPES,
      primaryType: "Release",
      message: { ...terms, funder: funder.address },
    });
    expect(await E().read.releaseDigest([k, funder.address, terms.recipients, terms.amounts, terms.fee])).toBe(digest);
    const r = await mined(
      chain,
      E().write.releaseSigned([k, funder.address, terms.recipients, terms.amounts, terms.fee, sig]),
    );
    expect(events(r)).toEqual(["Released", "Paid", "Paid", "Paid"]);
    expect([await chain.usdcBalance(alice), await chain.usdcBalance(bob)]).toEqual([U(60), U(39)]);
    expect(await E().read.released([k])).toBe(true);
    // Once per key: the same signature again is refused.
    await expectRevert(
      E().write.releaseSigned([k, funder.address, terms.recipients, terms.amounts, terms.fee, sig]),
      "AlreadyReleased",
      [k],
    );
  });

  it("pays with an ERC-1271 wallet funder (a contract signs through its owner key)", async () => {
    const owner = extraAccount(5);
    const walletAddr = await chain.anvil.deploy("MockWallet1271", [owner.address]);
    const k = missionKey("mis_sig_1271");
    await chain.mint(walletAddr, U(100));
    const exec = (target: Address, data: Hex) =>
      chain.wallet(owner).writeContract({
        address: walletAddr,
        abi: parseAbi(["function execute(address target, bytes data) returns (bytes)"]),
        functionName: "execute",
        args: [target, data],
      });
    await mined(
      chain,
      exec(chain.usdc, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [chain.escrow, U(100)] })),
    );
    await mined(
      chain,
      exec(
        chain.escrow,
        encodeFunctionData({
          abi: missionEscrowAbi,
          functionName: "fundUntil",
          args: [k, chain.usdc, U(100), 0n, await far()],
        }),
      ),
    );
    const terms = { missionKey: k, funder: walletAddr, recipients: [alice], amounts: [U(100)], fee: 0n };
    // Someone else's key signing for the wallet is refused; the owner's signature is accepted.
    const forged = await chain.signRelease(stranger, terms);
    await expectRevert(E().write.releaseSigned([k, walletAddr, [alice], [U(100)], 0n, forged]), "BadFunderSignature");
    const sig = await chain.signRelease(owner, terms);
    await mined(chain, E().write.releaseSigned([k, walletAddr, [alice], [U(100)], 0n, sig]));
    expect(await chain.usdcBalance(alice)).toBe(U(100));
  });

  it("refuses a wrong signer, other recipients, amounts or fee, another key, another escrow, and a non-resolver sender", async () => {
    const k = missionKey("mis_sig_bad");
    const k2 = missionKey("mis_sig_bad_2");
    await fund(funder, k, U(200));
    await fund(funder, k2, U(200));
    const terms = { missionKey: k, recipients: [alice], amounts: [U(99)], fee: U(1) };
    const good = await chain.signRelease(funder, terms);
    const bad = async (sig: Hex, recipients = [alice], amounts = [U(99)], fee = U(1), key = k) =>
      expectRevert(E().write.releaseSigned([key, funder.address, recipients, amounts, fee, sig]), "BadFunderSignature");
    await bad(await chain.signRelease(chain.resolver, { ...terms, funder: funder.address })); // the resolver signs itself
    await bad(await chain.signRelease(funder2, { ...terms, funder: funder.address })); // another funder
    await bad(good, [bob]); // recipients swapped
    await bad(good, [alice], [U(150)]); // amounts changed
    await bad(good, [alice], [U(99)], 0n); // fee changed
    await bad(good, [alice], [U(99)], U(1), k2); // replay on another key of the same funder
    await bad(await chain.signRelease(funder, terms, { escrow: chain.usdc })); // another verifying contract
    await bad("0x"); // no signature
    await expectRevert(
      E(stranger).write.releaseSigned([k, funder.address, [alice], [U(99)], U(1), good]),
      "AccessControlUnauthorizedAccount",
    );
    expect(await E().read.depositOf([k, funder.address])).toEqual([usdc(), U(200)]);
    await mined(chain, E().write.releaseSigned([k, funder.address, [alice], [U(99)], U(1), good]));
    // The key-2 slot is untouched by the replay attempts.
    expect(await E().read.depositOf([k2, funder.address])).toEqual([usdc(), U(200)]);
  });
});

describe("path 2: proposeRelease / executeRelease", () => {
  it("proposes with an event, refuses execution before the window, lets anyone execute after it", async () => {
    const k = missionKey("mis_delay");
    await fund(funder, k, U(100));
    const r = await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(99)], U(1)]));
    const [ev] = parseEventLogs({ abi: missionEscrowAbi, logs: r.logs, eventName: "ReleaseProposed" });
    const t = (await chain.anvil.publicClient.getBlock({ blockNumber: r.blockNumber })).timestamp;
    expect(ev!.args.executableAt).toBe(t + BigInt(RELEASE_DELAY));
    expect(ev!.args.recipients).toEqual([alice]);
    expect(await E().read.proposalOf([k, funder.address])).toEqual([ev!.args.proposalHash, t + BigInt(RELEASE_DELAY)]);
    await expectRevert(E().write.proposeRelease([k, funder.address, [bob], [U(10)], 0n]), "ReleasePending", [
      k,
      funder.address,
    ]);
    await expectRevert(
      E(stranger).write.executeRelease([k, funder.address, [alice], [U(99)], U(1)]),
      "ReleaseNotReady",
      [t + BigInt(RELEASE_DELAY)],
    );
    await chain.increaseTime(RELEASE_DELAY);
    await expectRevert(E(stranger).write.executeRelease([k, funder.address, [bob], [U(99)], U(1)]), "ProposalMismatch");
    await expectRevert(E(stranger).write.executeRelease([k, funder.address, [alice], [U(99)], 0n]), "ProposalMismatch");
    const before = await E().read.releasedInPeriod([chain.usdc]);
    await mined(chain, E(stranger).write.executeRelease([k, funder.address, [alice], [U(99)], U(1)]));
    expect(await chain.usdcBalance(alice)).toBe(U(99));
    expect((await E().read.releasedInPeriod([chain.usdc])) - before).toBe(U(100)); // paid + fee
    expect(await E().read.proposalOf([k, funder.address])).toEqual([`0x${"00".repeat(32)}`, 0n]);
    await expectRevert(E(stranger).write.executeRelease([k, funder.address, [alice], [U(99)], U(1)]), "NoProposal", [
      k,
      funder.address,
    ]);
    await expectRevert(
      E(stranger).write.proposeRelease([k, funder.address, [alice], [1n], 0n]),
      "AccessControlUnauthorizedAccount",
    );
  });

  it("a guardian cancel stops it; the slot stays funded and a new proposal is possible; only the guardian cancels", async () => {
    const k = missionKey("mis_cancel");
    await fund(funder, k, U(100));
    await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(100)], 0n]));
    for (const who of [chain.resolver, chain.admin, stranger]) {
      await expectRevert(E(who).write.cancelRelease([k, funder.address]), "AccessControlUnauthorizedAccount");
    }
    const funderBefore = await chain.usdcBalance(funder.address);
    const r = await mined(chain, E(chain.guardian).write.cancelRelease([k, funder.address]));
    expect(events(r)).toEqual(["ReleaseCancelled"]);
    expect(await chain.usdcBalance(funder.address)).toBe(funderBefore); // a cancel never pays the funder
    await chain.increaseTime(RELEASE_DELAY);
    await expectRevert(E(stranger).write.executeRelease([k, funder.address, [alice], [U(100)], 0n]), "NoProposal");
    expect(await E().read.depositOf([k, funder.address])).toEqual([usdc(), U(100)]);
    await mined(chain, E().write.proposeRelease([k, funder.address, [bob], [U(100)], 0n]));
    await chain.increaseTime(RELEASE_DELAY);
    await mined(chain, E(stranger).write.executeRelease([k, funder.address, [bob], [U(100)], 0n]));
    expect([await chain.usdcBalance(alice), await chain.usdcBalance(bob)]).toEqual([0n, U(100)]);
  });

  it("an emptied slot drops its proposal: a later deposit is never paid by an old proposal", async () => {
    const k = missionKey("mis_stale");
    await fund(funder, k, U(100));
    await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(100)], 0n]));
    await mined(chain, E().write.refund([k, funder.address]));
    await fund(funder, k, U(100));
    await chain.increaseTime(RELEASE_DELAY);
    await expectRevert(E(stranger).write.executeRelease([k, funder.address, [alice], [U(100)], 0n]), "NoProposal");
    // A signed release clears a pending proposal as well.
    await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(100)], 0n]));
    const terms = { missionKey: k, recipients: [bob], amounts: [U(100)], fee: 0n };
    await mined(
      chain,
      E().write.releaseSigned([k, funder.address, [bob], [U(100)], 0n, await chain.signRelease(funder, terms)]),
    );
    expect(await E().read.proposalOf([k, funder.address])).toEqual([`0x${"00".repeat(32)}`, 0n]);
  });

  it("pause (guardian only) blocks the three release entry points, not funding or the exits", async () => {
    const k = missionKey("mis_pause");
    const k2 = missionKey("mis_pause_2");
    await fund(funder, k, U(100));
    await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(100)], 0n]));
    for (const who of [chain.resolver, chain.admin, stranger]) {
      await expectRevert(E(who).write.pause(), "AccessControlUnauthorizedAccount");
    }
    await mined(chain, E(chain.guardian).write.pause());
    await chain.increaseTime(RELEASE_DELAY);
    await expectRevert(E(stranger).write.executeRelease([k, funder.address, [alice], [U(100)], 0n]), "EnforcedPause");
    await fund(funder2, k2, U(50)); // funding works
    await expectRevert(E().write.proposeRelease([k2, funder2.address, [alice], [U(50)], 0n]), "EnforcedPause");
    const sig = await chain.signRelease(funder2, { missionKey: k2, recipients: [alice], amounts: [U(50)], fee: 0n });
    await expectRevert(E().write.releaseSigned([k2, funder2.address, [alice], [U(50)], 0n, sig]), "EnforcedPause");
    await mined(chain, E().write.refund([k2, funder2.address])); // refund pays only the funder: allowed
    await mined(chain, E(chain.guardian).write.cancelRelease([k, funder.address])); // cancel: allowed
    await expectRevert(E(stranger).write.unpause(), "AccessControlUnauthorizedAccount");
    await mined(chain, E(chain.guardian).write.unpause());
    await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(100)], 0n]));
    await chain.increaseTime(RELEASE_DELAY);
    await mined(chain, E(stranger).write.executeRelease([k, funder.address, [alice], [U(100)], 0n]));
    expect(await chain.usdcBalance(alice)).toBe(U(100));
  });

  it("the per-period cap counts paid + fee, rolls over with the window, and only lowers", async () => {
    expect(await E().read.releaseCap([chain.usdc])).toBe(USDC_RELEASE_CAP);
    await expectRevert(
      E(chain.resolver).write.lowerReleaseCap([chain.usdc, U(150)]),
      "AccessControlUnauthorizedAccount",
    );
    await expectRevert(E(chain.admin).write.lowerReleaseCap([chain.usdc, USDC_RELEASE_CAP + 1n]), "CapNotLower");
    const r = await mined(chain, E(chain.admin).write.lowerReleaseCap([chain.usdc, U(150)]));
    expect(events(r)).toEqual(["ReleaseCapLowered"]);
    // Start at the beginning of a window so the two executions share it.
    const t = await now(chain);
    const period = BigInt(CAP_PERIOD);
    await chain.increaseTime(Number(period - (t % period)) + 1);
    const keys = ["mis_cap_1", "mis_cap_2", "mis_cap_3"].map(missionKey);
    for (const k of keys) {
      await fund(funder, k, U(100));
      await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(99)], U(1)]));
    }
    await chain.increaseTime(RELEASE_DELAY);
    await mined(chain, E(stranger).write.executeRelease([keys[0]!, funder.address, [alice], [U(99)], U(1)]));
    expect(await E().read.releasedInPeriod([chain.usdc])).toBe(U(100));
    expect(await E().read.releaseCapAvailable([chain.usdc])).toBe(U(50));
    await expectRevert(
      E(stranger).write.executeRelease([keys[1]!, funder.address, [alice], [U(99)], U(1)]),
      "CapExceeded",
      [usdc(), U(100), U(50)],
    );
    await chain.increaseTime(CAP_PERIOD); // the next window
    expect(await E().read.releasedInPeriod([chain.usdc])).toBe(0n);
    await mined(chain, E(stranger).write.executeRelease([keys[1]!, funder.address, [alice], [U(99)], U(1)]));
    // A cap of 0 closes the delayed path for the token.
    await mined(chain, E(chain.admin).write.lowerReleaseCap([chain.usdc, 0n]));
    await expectRevert(
      E(stranger).write.executeRelease([keys[2]!, funder.address, [alice], [U(99)], U(1)]),
      "CapExceeded",
      [usdc(), U(100), 0n],
    );
    expect(await chain.usdcBalance(alice)).toBe(U(198));
  });
});
