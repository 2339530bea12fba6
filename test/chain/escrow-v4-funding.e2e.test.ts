import { encodeFunctionData, erc20Abi, getAddress, keccak256, parseAbi, toHex, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { OabpError } from "../../packages/client/src/errors";
import { escrowFundAbi, prepareFund } from "../../packages/client/src/escrow-fund";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { ADMIN_DELAY, RELEASE_DELAY, type EscrowChain } from "../helpers/escrow-chain";
import { signReceiveAuthorization } from "../helpers/usdc-sign";
import { U, expectRevert, extraAccount, mined, missionKey, now } from "../helpers/escrow-v3";
import { escrowV4As, useV4Chain } from "../helpers/escrow-v4";

// Contract v4 (docs/base-rail.md "Trust model (contract v4)"): funding is refused while a governance
// change is pending; the exit such a change opens does not take back a reward already proposed to its
// winner; a funder funds from an EIP-3009 authorization alone (no approve, no gas), used once.

let chain: EscrowChain;
useV4Chain((c) => {
  chain = c;
});
const creator = extraAccount(0);
const winner = extraAccount(4).address;
const relayer = extraAccount(2);
const newResolver = extraAccount(5);
const E = (who = chain.admin) => escrowV4As(chain, who);
const DAY = 86_400n;
const fund = async (k: Hex, amount: bigint) =>
  chain.fund(creator, k, amount, 0n, { refundAfter: (await now(chain)) + 30n * DAY });

describe("governance changes and funding", () => {
  it("refuses funding while a resolver change is pending, with the change's time; funding reopens after it", async () => {
    const r = await mined(chain, E().write.proposeResolver([newResolver.address]));
    const since = (await chain.anvil.publicClient.getBlock({ blockNumber: r.blockNumber })).timestamp;
    await expectRevert(fund(missionKey("v4_gov_fund"), U(10)), "GovernanceChangePending", [since]);
    await chain.increaseTime(ADMIN_DELAY);
    await mined(chain, E(relayer).write.activateResolver());
    await fund(missionKey("v4_gov_fund"), U(10));
    expect((await E().read.depositOf([missionKey("v4_gov_fund"), creator.address]))[1]).toBe(U(10));
  });

  it("the tools name the refusal: the client's funding estimate says a governance change is pending and what to do", async () => {
    await mined(chain, E().write.proposeResolver([newResolver.address]));
    const k = missionKey("v4_gov_tools");
    const data = encodeFunctionData({
      abi: escrowFundAbi,
      functionName: "fundUntil",
      args: [k, chain.usdc, U(10), 0n, (await now(chain)) + DAY, 0n],
    });
    const err = await prepareFund(chain.anvil.publicClient, creator.address, chain.escrow, data).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OabpError);
    expect((err as OabpError).code).toBe("FUND_REFUSED");
    expect((err as OabpError).details).toMatchObject({ reason: "GovernanceChangePending" });
    expect((err as OabpError).message).toMatch(/funding reopens once it takes effect or is cancelled/);
  });

  it("refuses funding while an admin transfer is pending", async () => {
    await mined(chain, E().write.beginDefaultAdminTransfer([relayer.address]));
    await expectRevert(fund(missionKey("v4_gov_admin"), U(10)), "GovernanceChangePending");
  });
});

describe("a resolver rotation cannot take back a proposed reward", () => {
  it("the creator cannot selfRefund a slot whose proposal predates the change; its winner is paid", async () => {
    const proposed = missionKey("v4_rot_proposed");
    const idle = missionKey("v4_rot_idle");
    await fund(proposed, U(500));
    await fund(idle, U(100));
    await mined(chain, E(chain.resolver).write.proposeRelease([proposed, creator.address, [winner], [U(500)], 0n]));
    await chain.increaseTime(5);
    const r = await mined(chain, E().write.proposeResolver([newResolver.address]));
    const since = (await chain.anvil.publicClient.getBlock({ blockNumber: r.blockNumber })).timestamp;
    const [proposedAt] = await E().read.proposalEpochOf([proposed, creator.address]);
    await expectRevert(E(creator).write.selfRefund([proposed]), "ProposalPredatesChange", [proposedAt, since]);
    // A slot without a proposal still exits at once (v3's guarantee).
    const before = await chain.usdcBalance(creator.address);
    await mined(chain, E(creator).write.selfRefund([idle]));
    expect((await chain.usdcBalance(creator.address)) - before).toBe(U(100));
    // The proposal's window ends before the new resolver's office begins: the winner is paid.
    expect(RELEASE_DELAY).toBeLessThan(ADMIN_DELAY);
    await chain.increaseTime(RELEASE_DELAY);
    await mined(chain, E(relayer).write.executeRelease([proposed, creator.address, [winner], [U(500)], 0n]));
    expect(await chain.usdcBalance(winner)).toBe(U(500));
  });

  it("a proposal made after the change was announced does not close the exit", async () => {
    const k = missionKey("v4_rot_late_proposal");
    await fund(k, U(100));
    await mined(chain, E().write.proposeResolver([newResolver.address]));
    await chain.increaseTime(5);
    await mined(chain, E(chain.resolver).write.proposeRelease([k, creator.address, [winner], [U(100)], 0n]));
    await mined(chain, E(creator).write.selfRefund([k]));
    expect((await E().read.depositOf([k, creator.address]))[1]).toBe(0n);
  });
});

describe("fundWithAuthorization (EIP-3009 receiveWithAuthorization)", () => {
  const funder = extraAccount(6);

  async function authorize(k: Hex, amount: bigint, spamFee: bigint, refundAfter: bigint, salt: Hex): Promise<Auth> {
    const nonce = await E().read.fundingAuthorizationNonce([k, amount, spamFee, refundAfter, 0n, salt]);
    const validBefore = (await now(chain)) + 3600n;
    const { v, r, s } = await signReceiveAuthorization(funder, {
      chainId: chain.anvil.chainId,
      token: chain.usdc,
      to: chain.escrow,
      value: amount + spamFee,
      validBefore,
      nonce,
    });
    return { from: funder.address, validAfter: 0n, validBefore, salt, v, r, s };
  }

  it("funds a slot for a funder with no gas and no approve; anyone relays; the authorization cannot be used twice", async () => {
    const k = missionKey("v4_auth");
    await chain.setEth(funder.address, 0n);
    await chain.mint(funder.address, U(105));
    const refundAfter = (await now(chain)) + 30n * DAY;
    const auth = await authorize(k, U(100), U(5), refundAfter, keccak256(toHex("salt-1")));
    const treasuryBefore = await chain.usdcBalance(chain.treasury);
    await mined(chain, E(relayer).write.fundWithAuthorization([k, chain.usdc, U(100), U(5), refundAfter, 0n, auth]));
    expect(await E().read.depositOf([k, funder.address])).toEqual([getAddress(chain.usdc), U(100)]);
    expect((await chain.usdcBalance(chain.treasury)) - treasuryBefore).toBe(U(5));
    expect(await chain.ethBalance(funder.address)).toBe(0n);
    const allowance = await chain.anvil.publicClient.readContract({
      address: chain.usdc,
      abi: erc20Abi,
      functionName: "allowance",
      args: [funder.address, chain.escrow],
    });
    expect(allowance).toBe(0n);
    // Refund the slot, then relay the same authorization again: the token has spent its nonce.
    await mined(chain, E(chain.resolver).write.refund([k, funder.address]));
    await expectRevert(relay([k, chain.usdc, U(100), U(5), refundAfter, 0n, auth]), "AuthorizationUsedAlready");
  });

  it("a relayer cannot spend an authorization on other terms (another key or another refund-after)", async () => {
    const k = missionKey("v4_auth_terms");
    await chain.mint(funder.address, U(100));
    const refundAfter = (await now(chain)) + 30n * DAY;
    const auth = await authorize(k, U(100), 0n, refundAfter, keccak256(toHex("salt-2")));
    const other = missionKey("v4_auth_other");
    for (const args of [
      [other, chain.usdc, U(100), 0n, refundAfter, 0n, auth],
      [k, chain.usdc, U(100), 0n, refundAfter + 1n, 0n, auth],
      [k, chain.usdc, U(100), 0n, refundAfter, refundAfter, auth],
    ] as const) {
      await expectRevert(relay(args), "InvalidAuthorizationSignature");
    }
    await mined(chain, E(relayer).write.fundWithAuthorization([k, chain.usdc, U(100), 0n, refundAfter, 0n, auth]));
    expect((await E().read.depositOf([k, funder.address]))[1]).toBe(U(100));
  });

  it("the token refuses the authorization from anyone but the escrow (no front-run into a bare transfer)", async () => {
    const k = missionKey("v4_auth_frontrun");
    await chain.mint(funder.address, U(10));
    const refundAfter = (await now(chain)) + 30n * DAY;
    const auth = await authorize(k, U(10), 0n, refundAfter, keccak256(toHex("salt-3")));
    const nonce = await E().read.fundingAuthorizationNonce([k, U(10), 0n, refundAfter, 0n, auth.salt]);
    await expectRevert(
      chain.wallet(relayer).writeContract({
        address: chain.usdc,
        abi: receiveAbi,
        functionName: "receiveWithAuthorization",
        args: [funder.address, chain.escrow, U(10), 0n, auth.validBefore, nonce, auth.v, auth.r, auth.s],
      }),
      "CallerMustBePayee",
    );
  });
});

/** The escrow's Authorization argument: an EIP-3009 receive-authorization's fields and v, r, s. */
interface Auth {
  from: Hex;
  validAfter: bigint;
  validBefore: bigint;
  salt: Hex;
  v: number;
  r: Hex;
  s: Hex;
}

// TestUSDC's EIP-3009 errors, so a revert inside the token decodes by name.
const tokenErrors = [
  "CallerMustBePayee",
  "AuthorizationUsedAlready",
  "InvalidAuthorizationSignature",
  "AuthorizationExpired",
].map((name) => ({ type: "error", name, inputs: [] }) as const);

type FundArgs = readonly [Hex, Hex, bigint, bigint, bigint, bigint, Auth];

/** fundWithAuthorization from `relayer`, with the token's errors in the ABI. */
const relay = (args: FundArgs) =>
  chain.wallet(relayer).writeContract({
    address: chain.escrow,
    abi: [...missionEscrowAbi, ...tokenErrors],
    functionName: "fundWithAuthorization",
    args,
  });

const receiveAbi = [
  ...parseAbi([
    "function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
  ]),
  ...tokenErrors,
] as const;
