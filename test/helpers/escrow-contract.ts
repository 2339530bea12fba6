import {
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  decodeErrorResult,
  erc20Abi,
  getAddress,
  getContract,
  http,
  isAddressEqual,
  parseAbi,
  parseEventLogs,
  type Address,
  type ContractEventName,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { missionEscrowV3Abi as missionEscrowAbi } from "../../src/lib/abi/mission-escrow-v3";
import { startAnvil, type Anvil } from "./anvil";
import { ADMIN_DELAY, CAP_PERIOD, FEE_CAP_BPS, GUARDIAN_INDEX, RELEASE_DELAY, signReleaseWith } from "./escrow-chain";
import { U } from "./escrow-v3";
import { signUsdcPermit } from "./usdc-sign";

// Shared set-up of the contract v3 tests in test/chain/escrow-contract*.e2e.test.ts: a local anvil
// (chain id 8453) of its own with TestUSDC (6 decimals, EIP-2612, blacklist) and the malicious
// ReentrantToken, named accounts, and the calls those tests make. Every test runs between an evm
// snapshot and a revert, so tests are independent of order.

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
export type Who = (typeof NAMES)[number];
export const acct = Object.fromEntries(
  NAMES.map((n, i) => [n, mnemonicToAccount(MNEMONIC, { addressIndex: i })]),
) as Record<Who, ReturnType<typeof mnemonicToAccount>>;
const guardian = mnemonicToAccount(MNEMONIC, { addressIndex: GUARDIAN_INDEX });
/** The named accounts' addresses. */
export const A = Object.fromEntries(NAMES.map((n) => [n, acct[n].address])) as Record<Who, Address>;

/** What each of funder, funder2 and attacker holds of each token at the start of a test. */
export const MINT = U(1_000_000);

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

/** The file's chain and its three contracts, set in its beforeAll. */
export interface ContractChain {
  anvil: Anvil;
  usdc: Address;
  /** ReentrantToken */
  rt: Address;
  /** MissionEscrowV3 */
  escrow: Address;
}
let anvil: Anvil;
let usdc: Address;
let rt: Address;
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

export const as = (who: Who) => {
  const client = { public: anvil.publicClient, wallet: wallets[who] };
  return {
    escrow: getContract({ address: escrow, abi: missionEscrowAbi, client }),
    usdc: getContract({ address: usdc, abi: usdcAbi, client }),
    rt: getContract({ address: rt, abi: rtAbi, client }),
    erc20: (token: Address) => getContract({ address: token, abi: erc20Abi, client }),
  };
};
export const read = () => as("admin").escrow.read;

export async function mined(tx: Promise<Hex>): Promise<TransactionReceipt> {
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash: await tx });
  expect(receipt.status).toBe("success");
  return receipt;
}

/** Expects `tx` to revert with the named custom error (decoded with the escrow ABI, else the token errors). */
export async function expectRevert(tx: Promise<unknown>, errorName: string, args?: readonly unknown[]) {
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

export const balanceOf = (token: Address, who: Address) => as("admin").erc20(token).read.balanceOf([who]);

/** Runs `tx` and returns its receipt and the balance change of each address in `who`. */
export async function deltas(token: Address, who: Address[], tx: () => Promise<TransactionReceipt>) {
  const before = await Promise.all(who.map((w) => balanceOf(token, w)));
  const receipt = await tx();
  const after = await Promise.all(who.map((w) => balanceOf(token, w)));
  return { receipt, d: after.map((x, i) => x - before[i]!) };
}

/** The escrow's own events in a receipt, decoded. */
export const escrowLogs = (r: TransactionReceipt) =>
  parseEventLogs({ abi: missionEscrowAbi, logs: r.logs.filter((l) => isAddressEqual(l.address, escrow)) });
export const args = (r: TransactionReceipt, name: ContractEventName<typeof missionEscrowAbi>) =>
  escrowLogs(r)
    .filter((l) => l.eventName === name)
    .map((l) => l.args);
/** [to, amount] of each Paid event, in order. */
export const paid = (r: TransactionReceipt) =>
  parseEventLogs({
    abi: missionEscrowAbi,
    logs: r.logs.filter((l) => isAddressEqual(l.address, escrow)),
    eventName: "Paid",
  }).map((l) => [l.args.to, l.args.amount] as const);

/** A new resolver takes office after the admin delay (contract v2). */
export async function makeResolver(who: Address) {
  await mined(as("admin").escrow.write.proposeResolver([who]));
  await anvil.testClient.increaseTime({ seconds: ADMIN_DELAY });
  await anvil.testClient.mine({ blocks: 1 });
  await mined(as("attacker").escrow.write.activateResolver());
}

/** approve + fund. */
export async function fund(who: Who, missionKey: Hex, amount: bigint, spamFee: bigint, token: Address = usdc) {
  await mined(
    as(who)
      .erc20(token)
      .write.approve([escrow, amount + spamFee]),
  );
  return mined(as(who).escrow.write.fund([missionKey, token, amount, spamFee]));
}
/** Contract v3 path 1: the release the funder signed (EIP-712), sent by `by` (the resolver). */
export async function release(
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

export async function signPermit(owner: Who, value: bigint) {
  const deadline = (await anvil.publicClient.getBlock()).timestamp + 3600n;
  const nonce = await as(owner).usdc.read.nonces([A[owner]]);
  const { v, r, s } = await signUsdcPermit(acct[owner], {
    chainId: anvil.chainId,
    token: usdc,
    spender: escrow,
    value,
    nonce,
    deadline,
  });
  return { deadline, v, r, s };
}

/**
 * Starts the chain and deploys the contracts before the file's tests (funder, funder2 and attacker
 * hold MINT of USDC and of the ReentrantToken), hands them to `ready`; an evm snapshot before each
 * test and its revert after it; stops the chain after the file.
 */
export function useContractChain(ready: (c: ContractChain) => void): void {
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
    ready({ anvil, usdc, rt, escrow });
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
}
