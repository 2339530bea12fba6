import { getAddress, hashTypedData, keccak256, encodePacked, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { ADMIN_DELAY, CAP_PERIOD, RELEASE_DELAY, RELEASE_TYPES_V4, type EscrowChain } from "../helpers/escrow-chain";
import { RESOLVER_ROLE, U, expectRevert, extraAccount, mined, missionKey, now } from "../helpers/escrow-v3";
import { escrowV4As, signSlotRelease, useV4Chain } from "../helpers/escrow-v4";

// Contract v4 (docs/base-rail.md "Trust model (contract v4)"): what a stolen resolver key can no
// longer do — propose a signed-only slot before its time, execute a proposal after its revocation,
// replay a funder's signature onto a new slot instance or token or past its deadline, pay twice the
// cap across a window boundary, or empty slots to their funders while paused.

let chain: EscrowChain;
useV4Chain((c) => {
  chain = c;
});
const funder = extraAccount(0);
const attacker = extraAccount(3);
const alice = extraAccount(4).address;
const newResolver = extraAccount(5);
const E = (who = chain.resolver) => escrowV4As(chain, who);
const DAY = 86_400n;
const fund = async (k: Hex, amount: bigint, o: { signedOnlyUntil?: bigint; refundAfter?: bigint } = {}) =>
  chain.fund(funder, k, amount, 0n, { refundAfter: o.refundAfter ?? (await now(chain)) + 30n * DAY, ...o });
const consent = (deadline: bigint, signature: Hex) => ({ deadline, signature });

describe("a signed-only slot (the creator_judges case)", () => {
  it("a stolen resolver key cannot propose it to itself before its time; the funder's signature and a refund still move it", async () => {
    const k = missionKey("v4_signed_only");
    const until = (await now(chain)) + 7n * DAY;
    await fund(k, U(100), { signedOnlyUntil: until });
    expect((await E().read.slotOf([k, funder.address]))[1]).toBe(until);
    const toAttacker = [k, funder.address, [attacker.address], [U(100)], 0n] as const;
    await expectRevert(E().write.proposeRelease(toAttacker), "SignedOnly", [until]);
    // Still refused a second before its time (chain time, not the server's).
    await chain.increaseTime(Number(until - (await now(chain))) - 2);
    await expectRevert(E().write.proposeRelease(toAttacker), "SignedOnly", [until]);
    // The funder-signed release pays the winner at once.
    const deadline = (await now(chain)) + DAY;
    const terms = { missionKey: k, recipients: [alice], amounts: [U(99)], fee: U(1), deadline };
    const sig = await signSlotRelease(chain, funder, terms);
    await mined(chain, E().write.releaseSigned([k, funder.address, [alice], [U(99)], U(1), consent(deadline, sig)]));
    expect(await chain.usdcBalance(alice)).toBe(U(99));
    expect(await chain.usdcBalance(attacker.address)).toBe(0n);
  });

  it("after its time the default award may be proposed (and is watched as any proposal); a refund to the funder works before", async () => {
    const k = missionKey("v4_signed_only_after");
    const until = (await now(chain)) + DAY;
    await fund(k, U(100), { signedOnlyUntil: until });
    await chain.increaseTime(Number(DAY));
    await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(100)], 0n]));
    await chain.increaseTime(RELEASE_DELAY);
    await mined(chain, E(attacker).write.executeRelease([k, funder.address, [alice], [U(100)], 0n]));
    expect(await chain.usdcBalance(alice)).toBe(U(100));

    const k2 = missionKey("v4_signed_only_refund");
    await fund(k2, U(50), { signedOnlyUntil: (await now(chain)) + DAY });
    const before = await chain.usdcBalance(funder.address);
    await mined(chain, E().write.refund([k2, funder.address]));
    expect((await chain.usdcBalance(funder.address)) - before).toBe(U(50));
  });

  it("refuses a signed-only time after the refund-after time", async () => {
    const refundAfter = (await now(chain)) + DAY;
    await expectRevert(
      chain.fund(funder, missionKey("v4_bad_until"), U(1), 0n, { refundAfter, signedOnlyUntil: refundAfter + 1n }),
      "BadSignedOnlyUntil",
      [refundAfter + 1n],
    );
  });
});

describe("proposals die with the resolver's office", () => {
  it("a proposal cannot execute after its resolver is revoked", async () => {
    const k = missionKey("v4_revoked");
    await fund(k, U(1000));
    await mined(chain, E().write.proposeRelease([k, funder.address, [attacker.address], [U(1000)], 0n]));
    await mined(chain, E(chain.admin).write.revokeRole([RESOLVER_ROLE, chain.resolver.address]));
    expect(await E().read.resolverEpoch()).toBe(1n);
    await chain.increaseTime(RELEASE_DELAY);
    await expectRevert(
      E(attacker).write.executeRelease([k, funder.address, [attacker.address], [U(1000)], 0n]),
      "ProposalRevoked",
      [0n, 1n],
    );
    expect((await E().read.proposalEpochOf([k, funder.address]))[2]).toBe(false);
    expect(await chain.usdcBalance(attacker.address)).toBe(0n);
  });

  it("a rotation kills the old office's proposals; the new resolver re-proposes and is paid out", async () => {
    const k = missionKey("v4_rotated");
    await fund(k, U(100));
    await mined(chain, E().write.proposeRelease([k, funder.address, [alice], [U(100)], 0n]));
    await mined(chain, E(chain.admin).write.proposeResolver([newResolver.address]));
    await chain.setEth(newResolver.address, 10n ** 20n);
    await chain.increaseTime(ADMIN_DELAY);
    await mined(chain, E(attacker).write.activateResolver());
    await expectRevert(E(attacker).write.executeRelease([k, funder.address, [alice], [U(100)], 0n]), "ProposalRevoked");
    // The dead proposal does not block a new one.
    await mined(chain, E(newResolver).write.proposeRelease([k, funder.address, [alice], [U(100)], 0n]));
    await chain.increaseTime(RELEASE_DELAY);
    await mined(chain, E(attacker).write.executeRelease([k, funder.address, [alice], [U(100)], 0n]));
    expect(await chain.usdcBalance(alice)).toBe(U(100));
  });
});

describe("a release signature binds the token, the slot instance and a deadline", () => {
  it("matches viem's EIP-712 hash of the v4 Release", async () => {
    const k = missionKey("v4_digest");
    await fund(k, U(10));
    const deadline = 1n << 40n;
    const m = {
      missionKey: k,
      funder: funder.address,
      token: getAddress(chain.usdc),
      fundingNonce: 1n,
      recipients: [alice],
      amounts: [U(10)],
      fee: 0n,
      deadline,
    };
    const digest = hashTypedData({
      domain: { name: "MissionEscrow", version: "4", chainId: chain.anvil.chainId, verifyingContract: chain.escrow },
      types: RELEASE_TYPES_V4,
      primaryType: "Release",
      message: m,
    });
    const rh = keccak256(encodePacked(["address[]"], [[alice]]));
    const ah = keccak256(encodePacked(["uint256[]"], [[U(10)]]));
    expect(await E().read.releaseDigest([k, funder.address, m.token, 1n, rh, ah, 0n, deadline])).toBe(digest);
  });

  it("does not replay after a refund and a re-funding of the same key", async () => {
    const k = missionKey("v4_replay");
    await fund(k, U(100));
    const deadline = (await now(chain)) + 30n * DAY;
    const sig = await signSlotRelease(chain, funder, {
      missionKey: k,
      recipients: [alice],
      amounts: [U(100)],
      fee: 0n,
      deadline,
    });
    await mined(chain, E().write.refund([k, funder.address]));
    await fund(k, U(300));
    expect((await E().read.slotOf([k, funder.address]))[0]).toBe(2n);
    await expectRevert(
      E().write.releaseSigned([k, funder.address, [alice], [U(100)], 0n, consent(deadline, sig)]),
      "BadFunderSignature",
    );
    expect(await chain.usdcBalance(alice)).toBe(0n);
  });

  it("does not apply to another token, nor after its deadline", async () => {
    const k = missionKey("v4_token");
    await fund(k, U(100));
    const deadline = (await now(chain)) + 1000n;
    const terms = { missionKey: k, recipients: [alice], amounts: [U(100)], fee: 0n, deadline };
    const otherToken = await chain.anvil.deploy("TestUSDC");
    const wrongToken = await signSlotRelease(chain, funder, terms, { token: otherToken });
    await expectRevert(
      E().write.releaseSigned([k, funder.address, [alice], [U(100)], 0n, consent(deadline, wrongToken)]),
      "BadFunderSignature",
    );
    const good = await signSlotRelease(chain, funder, terms);
    await chain.increaseTime(1001);
    await expectRevert(
      E().write.releaseSigned([k, funder.address, [alice], [U(100)], 0n, consent(deadline, good)]),
      "SignatureExpired",
      [deadline],
    );
  });
});

describe("the rolling cap", () => {
  it("holds over every window of capPeriod: the across-a-boundary 2× of v3 fails, and the budget comes back", async () => {
    const cap = U(100);
    await mined(chain, E(chain.admin).write.lowerReleaseCap([chain.usdc, cap]));
    const n = 10;
    const keys = Array.from({ length: n }, (_, i) => missionKey(`v4_cap_${i}`));
    for (const k of keys) {
      await fund(k, U(50));
      await mined(chain, E().write.proposeRelease([k, funder.address, [attacker.address], [U(50)], 0n]));
    }
    // Jump to just before a cap-period boundary (v3's fixed windows reset there).
    const t0 = await now(chain);
    const toBoundary = CAP_PERIOD - Number(t0 % BigInt(CAP_PERIOD)) - 30;
    await chain.increaseTime(Math.max(toBoundary, RELEASE_DELAY));
    const paid: { t: bigint; amount: bigint }[] = [];
    const tryAll = async () => {
      for (const k of keys) {
        if (await E().read.released([k])) continue;
        const r = await E(attacker)
          .write.executeRelease([k, funder.address, [attacker.address], [U(50)], 0n])
          .then((h) => chain.anvil.publicClient.waitForTransactionReceipt({ hash: h }))
          .catch(() => null);
        if (r?.status === "success") {
          paid.push({
            t: (await chain.anvil.publicClient.getBlock({ blockNumber: r.blockNumber })).timestamp,
            amount: U(50),
          });
        }
      }
    };
    await tryAll(); // two fit: 100
    await chain.increaseTime(60); // across the boundary: v3 would pay 100 more here
    await tryAll();
    expect(paid.reduce((s, p) => s + p.amount, 0n)).toBe(cap);
    await expectRevert(
      E(attacker).write.executeRelease([keys[9]!, funder.address, [attacker.address], [U(50)], 0n]),
      "CapExceeded",
    );
    // Walk three days in 3-hour steps, spending whatever the cap allows.
    for (let i = 0; i < 24; i++) {
      await chain.increaseTime(3 * 3600);
      await tryAll();
    }
    expect(paid.length).toBeGreaterThan(2); // the budget does come back
    for (const a of paid) {
      const inWindow = paid.filter((p) => p.t >= a.t && p.t < a.t + BigInt(CAP_PERIOD));
      expect(inWindow.reduce((s, p) => s + p.amount, 0n)).toBeLessThanOrEqual(cap);
    }
  });
});

describe("pause", () => {
  it("stops the resolver's refund as well as releases; the funder's own exit stays open", async () => {
    const k = missionKey("v4_pause");
    const refundAfter = (await now(chain)) + DAY;
    await fund(k, U(100), { refundAfter });
    await mined(chain, E(chain.guardian).write.pause());
    await expectRevert(E().write.refund([k, funder.address]), "EnforcedPause");
    await chain.increaseTime(Number(DAY));
    const before = await chain.usdcBalance(funder.address);
    await mined(chain, E(funder).write.selfRefund([k]));
    expect((await chain.usdcBalance(funder.address)) - before).toBe(U(100));
  });
});
