import {
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  getContract,
  http,
  isAddressEqual,
  keccak256,
  maxUint256,
  parseAbi,
  parseEventLogs,
  parseSignature,
  parseUnits,
  toBytes,
  zeroAddress,
  type Abi,
  type Address,
  type ContractEventName,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { missionEscrowV3Abi as missionEscrowAbi } from "../../src/lib/abi/mission-escrow-v3";
import { startAnvil, type Anvil } from "../helpers/anvil";
import { CAP_PERIOD, GUARDIAN_INDEX, RELEASE_DELAY, signReleaseWith } from "../helpers/escrow-chain";

// On-chain tests of contracts/MissionEscrow.sol on a local anvil (chain id 8453), with TestUSDC
// (6 decimals, EIP-2612, blacklist) and the malicious ReentrantToken. Every test runs between an
// evm snapshot and a revert, so tests are independent of order.

const MNEMONIC = "test test test test test test test test test test test junk";
const NAMES = [
  "admin",
  "resolver",
  "treasury",
  "funder",
  "funder2",
  "alice",
  "bob",
  "carol",
  "attacker",
  "fresh",
] as const;
type Who = (typeof NAMES)[number];
const acct = Object.fromEntries(NAMES.map((n, i) => [n, mnemonicToAccount(MNEMONIC, { addressIndex: i })])) as Record<
  Who,
  ReturnType<typeof mnemonicToAccount>
>;
const guardian = mnemonicToAccount(MNEMONIC, { addressIndex: GUARDIAN_INDEX });
const A = Object.fromEntries(NAMES.map((n) => [n, acct[n].address])) as Record<Who, Address>;

const FEE_CAP_BPS = 100; // 1 %
const ADMIN_DELAY = 3600; // seconds a new admin (or resolver) waits
const U = (n: number) => parseUnits(String(n), 6);
const MINT = U(1_000_000);
const key = (missionId: string): Hex => keccak256(toBytes(missionId));
const RESOLVER_ROLE = keccak256(toBytes("RESOLVER_ROLE"));
const DEFAULT_ADMIN_ROLE: Hex = `0x${"00".repeat(32)}`;

const usdcAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function setBlacklisted(address account, bool value)",
  "function nonces(address owner) view returns (uint256)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
  "error Blacklisted(address account)",
]);
const rtAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function arm(address target, bytes data)",
  "function lastReentrySucceeded() view returns (bool)",
  "function lastReentryReturn() view returns (bytes)",
]);

let anvil: Anvil;
let usdc: Address;
let rt: Address; // ReentrantToken
let escrow: Address;
let snap: Hex;
const wallets = {} as Record<Who, ReturnType<typeof makeWallet>>;
const makeWallet = (who: Who) =>
  createWalletClient({
    chain: anvil.chain,
    transport: http(anvil.rpcUrl, { retryCount: 0 }),
    account: acct[who],
    pollingInterval: 50,
  });

const as = (who: Who) => {
  const client = { public: anvil.publicClient, wallet: wallets[who] };
  return {
    escrow: getContract({ address: escrow, abi: missionEscrowAbi, client }),
    usdc: getContract({ address: usdc, abi: usdcAbi, client }),
    rt: getContract({ address: rt, abi: rtAbi, client }),
    erc20: (token: Address) => getContract({ address: token, abi: erc20Abi, client }),
  };
};
const read = () => as("admin").escrow.read;

async function mined(tx: Promise<Hex>): Promise<TransactionReceipt> {
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash: await tx });
  expect(receipt.status).toBe("success");
  return receipt;
}

/** Expects `tx` to revert with the named custom error (decoded with the escrow ABI, else the token errors). */
async function expectRevert(tx: Promise<unknown>, errorName: string, args?: readonly unknown[]) {
  const err = await tx.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected a revert with ${errorName}`).toBeInstanceOf(BaseError);
  const rev = (err as BaseError).walk(
    (e) => e instanceof ContractFunctionRevertedError,
  ) as ContractFunctionRevertedError | null;
  expect(rev, String(err)).toBeInstanceOf(ContractFunctionRevertedError);
  const data = rev!.data ?? (rev!.raw ? decodeErrorResult({ abi: usdcAbi, data: rev!.raw }) : undefined);
  expect(data?.errorName).toBe(errorName);
  if (args) expect(data?.args).toEqual(args);
}

const balanceOf = (token: Address, who: Address) => as("admin").erc20(token).read.balanceOf([who]);

/** Runs `tx` and returns its receipt and the balance change of each address in `who`. */
async function deltas(token: Address, who: Address[], tx: () => Promise<TransactionReceipt>) {
  const before = await Promise.all(who.map((w) => balanceOf(token, w)));
  const receipt = await tx();
  const after = await Promise.all(who.map((w) => balanceOf(token, w)));
  return { receipt, d: after.map((x, i) => x - before[i]!) };
}

/** The escrow's own events in a receipt, decoded. */
const escrowLogs = (r: TransactionReceipt) =>
  parseEventLogs({ abi: missionEscrowAbi, logs: r.logs.filter((l) => isAddressEqual(l.address, escrow)) });
const args = (r: TransactionReceipt, name: ContractEventName<typeof missionEscrowAbi>) =>
  escrowLogs(r)
    .filter((l) => l.eventName === name)
    .map((l) => l.args);
/** [to, amount] of each Paid event, in order. */
const paid = (r: TransactionReceipt) =>
  parseEventLogs({
    abi: missionEscrowAbi,
    logs: r.logs.filter((l) => isAddressEqual(l.address, escrow)),
    eventName: "Paid",
  }).map((l) => [l.args.to, l.args.amount] as const);

/** A new resolver takes office after the admin delay (contract v2). */
async function makeResolver(who: Address) {
  await mined(as("admin").escrow.write.proposeResolver([who]));
  await anvil.testClient.increaseTime({ seconds: ADMIN_DELAY });
  await anvil.testClient.mine({ blocks: 1 });
  await mined(as("attacker").escrow.write.activateResolver());
}

/** approve + fund. */
async function fund(who: Who, missionKey: Hex, amount: bigint, spamFee: bigint, token: Address = usdc) {
  await mined(
    as(who)
      .erc20(token)
      .write.approve([escrow, amount + spamFee]),
  );
  return mined(as(who).escrow.write.fund([missionKey, token, amount, spamFee]));
}
/** Contract v3 path 1: the release the funder signed (EIP-712), sent by `by` (the resolver). */
async function release(
  missionKey: Hex,
  funder: Who,
  to: Address[],
  amounts: bigint[],
  fee: bigint,
  by: Who = "resolver",
) {
  const sig = await signReleaseWith(
    acct[funder],
    { chainId: anvil.chainId, escrow },
    { missionKey, recipients: to, amounts, fee },
  );
  return as(by).escrow.write.releaseSigned([missionKey, A[funder], to, amounts, fee, sig]);
}

async function signPermit(owner: Who, value: bigint) {
  const deadline = (await anvil.publicClient.getBlock()).timestamp + 3600n;
  const nonce = await as(owner).usdc.read.nonces([A[owner]]);
  const sig = await acct[owner].signTypedData({
    domain: { name: "Test USD Coin", version: "1", chainId: anvil.chainId, verifyingContract: usdc },
    types: {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "Permit",
    message: { owner: A[owner], spender: escrow, value, nonce, deadline },
  });
  const { r, s, v, yParity } = parseSignature(sig);
  return { deadline, v: Number(v ?? BigInt(yParity + 27)), r, s };
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 8453 });
  for (const n of NAMES) wallets[n] = makeWallet(n);
  expect(anvil.account.address).toBe(A.admin); // anvil.deploy() deploys from the admin account
  usdc = getAddress(await anvil.deploy("TestUSDC"));
  rt = getAddress(await anvil.deploy("ReentrantToken"));
  escrow = getAddress(
    await anvil.deploy("MissionEscrowV3", [
      A.admin,
      A.resolver,
      guardian.address,
      A.treasury,
      FEE_CAP_BPS,
      ADMIN_DELAY,
      RELEASE_DELAY,
      CAP_PERIOD,
      [usdc, rt],
      [U(1_000_000), U(1_000_000)],
    ]),
  );
  for (const w of ["funder", "funder2", "attacker"] as const) {
    await mined(as("admin").usdc.write.mint([A[w], MINT]));
    await mined(as("admin").rt.write.mint([A[w], MINT]));
  }
});
afterAll(async () => {
  await anvil?.stop();
});
beforeEach(async () => {
  snap = await anvil.testClient.snapshot();
});
afterEach(async () => {
  await anvil.testClient.revert({ id: snap });
});

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
    const k = key("mis_fund");
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
    const k = key("mis_permit");
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
    const k = key("mis_permit_until");
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
        key("mis_permit_until_2"),
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
    const k = key("mis_frontrun");
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
      as("funder").escrow.write.fundWithPermit([key("mis_badpermit"), usdc, U(1000), U(5), p.deadline, p.v, p.r, p.s]),
      "ERC20InsufficientAllowance",
      [escrow, 0n, U(1005)],
    );
  });

  it("zero token or zero amount reverts", async () => {
    await expectRevert(as("funder").escrow.write.fund([key("mis_z"), zeroAddress, U(1), 0n]), "ZeroAddress");
    await expectRevert(as("funder").escrow.write.fund([key("mis_z"), usdc, 0n, U(1)]), "ZeroAmount");
  });
});

describe("release", () => {
  it("to one winner: the winner is paid, the excess deposit returns to the funder", async () => {
    const k = key("mis_one");
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
    const k = key("mis_three");
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
    const k = key("mis_cap");
    await fund("funder", k, U(1000), 0n);
    const { receipt, d } = await deltas(usdc, [A.alice, A.treasury, A.funder], () =>
      mined(release(k, "funder", [A.alice], [U(990)], U(10))),
    );
    expect(d).toEqual([U(990), U(10), 0n]);
    expect(paid(receipt).map(([to]) => to)).toEqual([A.alice, A.treasury]);
  });

  it("a key releases once: again, from a second funder's slot, or funding it afterwards reverts AlreadyReleased", async () => {
    const k = key("mis_once");
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
    const k = key("mis_void");
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
    const k = key("mis_nf");
    await expectRevert(as("resolver").escrow.write.refund([k, A.funder]), "NotFunded", [k, A.funder]);
    await fund("funder", k, U(100), 0n);
    await mined(release(k, "funder", [A.alice], [U(100)], 0n));
    await expectRevert(as("resolver").escrow.write.refund([k, A.funder]), "NotFunded", [k, A.funder]);
    await expectRevert(release(key("mis_nf2"), "funder", [A.alice], [1n], 0n), "NotFunded", [key("mis_nf2"), A.funder]);
  });

  it("one slot per funder: the same funder cannot fund a key twice, a different funder can", async () => {
    const k = key("mis_slots");
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
    const k = key("mis_stray");
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
    const k = key("mis_stray_refund");
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

describe("access control and validation", () => {
  it("release and refund from a non-resolver (admin included) revert AccessControlUnauthorizedAccount", async () => {
    const k = key("mis_roles");
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
    const k = key("mis_fee");
    await fund("funder", k, U(1000), 0n);
    // cap = 1 % of (paid + fee) = 1 % of 910 = 9.1
    await expectRevert(release(k, "funder", [A.alice], [U(900)], U(10)), "FeeTooHigh", [U(10), 9_100_000n]);
    await mined(as("admin").escrow.write.setFeeCapBps([0]));
    await expectRevert(release(k, "funder", [A.alice], [U(900)], 1n), "FeeTooHigh", [1n, 0n]);
  });

  it("amounts plus fee above the deposit revert ExceedsDeposit", async () => {
    const k = key("mis_exceeds");
    await fund("funder", k, U(1000), 0n);
    await expectRevert(release(k, "funder", [A.alice, A.bob], [U(600), U(400)], 1n), "ExceedsDeposit", [
      U(1000) + 1n,
      U(1000),
    ]);
    await expectRevert(release(k, "funder", [A.alice], [U(1000) + 1n], 0n), "ExceedsDeposit", [U(1000) + 1n, U(1000)]);
  });

  it("empty, mismatched, too many or zero-address recipients revert", async () => {
    const k = key("mis_recipients");
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
    const k = key("mis_blocked");
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
    const k = key("mis_bl_treasury");
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
    const k = key("mis_bl_stray");
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

describe("reentrancy through a malicious token (ReentrantToken)", () => {
  const D = U(1000);
  const K1 = key("mis_rt"); // the RT deposit the outer operation settles
  const KV = key("mis_rt_victim"); // funder2's USDC slot a reentrant release/refund would hit
  const KR = key("mis_rt_stray"); // a released key on which the token contract has a stray USDC slot
  const KC = key("mis_rt_credit"); // a release that credited USDC to the token contract
  const KF = key("mis_rt_fund"); // a key the reentrant fund would fund
  const KO = key("mis_rt_outer_fund");

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
    const k = key("mis_v2_resolver");
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
    const k = key("mis_v2_self");
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
    const k = key("mis_v2_released");
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
      as("funder").escrow.write.fundUntil([key("mis_v2_past"), usdc, U(10), 0n, BigInt(t0)]),
      "BadRefundAfter",
    );
    await expectRevert(
      as("funder").escrow.write.fundUntil([key("mis_v2_far"), usdc, U(10), 0n, BigInt(t0 + 3 * 365 * 86_400)]),
      "BadRefundAfter",
    );
  });

  it("the admin sweeps only the surplus (tokens sent outside fund), never a slot or a credit", async () => {
    const k = key("mis_v2_sweep");
    await fund("funder", k, U(1000), 0n);
    const kc = key("mis_v2_credit");
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
