import {
  BaseError,
  ContractFunctionRevertedError,
  getContract,
  keccak256,
  parseUnits,
  toBytes,
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { mnemonicToAccount, type HDAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { missionEscrowV3Abi as missionEscrowAbi } from "../../src/lib/abi/mission-escrow-v3";
import { startEscrowChain, type EscrowChain } from "./escrow-chain";

// Shared set-up of the contract v3 tests in test/chain/: one anvil with TestUSDC and MissionEscrow v3
// (test/helpers/escrow-chain.ts), an evm snapshot before each test and a revert after it.

const MNEMONIC = "test test test test test test test test test test test junk";
export const U = (n: number) => parseUnits(String(n), 6);
export const missionKey = (id: string): Hex => keccak256(toBytes(id));
export const RESOLVER_ROLE = keccak256(toBytes("RESOLVER_ROLE"));
export const GUARDIAN_ROLE = keccak256(toBytes("GUARDIAN_ROLE"));
export const DEFAULT_ADMIN_ROLE: Hex = `0x${"00".repeat(32)}`;

/** Mnemonic accounts 20.. (distinct from the chain's admin/resolver/treasury/guardian), with gas money. */
export function extraAccount(i: number): HDAccount {
  return mnemonicToAccount(MNEMONIC, { addressIndex: 20 + i });
}

export type Escrow = ReturnType<typeof escrowAs>;
export const escrowAs = (chain: EscrowChain, account: HDAccount, address: Address = chain.escrow) =>
  contractAs(missionEscrowAbi, chain, account, address);

/** The contract at `address` with ABI `abi`, read from the chain and written as `account`. */
export const contractAs = <const A extends Abi>(abi: A, chain: EscrowChain, account: HDAccount, address: Address) =>
  getContract({ address, abi, client: { public: chain.anvil.publicClient, wallet: chain.wallet(account) } });

export async function mined(chain: EscrowChain, tx: Promise<Hex>): Promise<TransactionReceipt> {
  const receipt = await chain.anvil.publicClient.waitForTransactionReceipt({ hash: await tx });
  expect(receipt.status).toBe("success");
  return receipt;
}

/** The custom error a call reverted with (decoded with the escrow ABI), or null when it did not revert. */
export async function revertOf(tx: Promise<unknown>): Promise<{ name: string; args: readonly unknown[] } | null> {
  const err = await tx.then(
    () => null,
    (e: unknown) => e,
  );
  if (err === null) return null;
  if (!(err instanceof BaseError)) throw err;
  const rev = err.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  if (!rev) throw err;
  return { name: rev.data?.errorName ?? rev.reason ?? "unknown", args: rev.data?.args ?? [] };
}

export async function expectRevert(tx: Promise<unknown>, errorName: string, args?: readonly unknown[]) {
  const r = await revertOf(tx);
  expect(r?.name, `expected a revert with ${errorName}`).toBe(errorName);
  if (args) expect(r?.args).toEqual(args);
}

/** Starts the chain once per file; every test runs between an evm snapshot and its revert. */
export function useV3Chain(
  ready: (chain: EscrowChain) => Promise<void> | void,
  opts: { version?: "3" | "4" } = {},
): void {
  let chain: EscrowChain | undefined;
  let snap: Hex | undefined;
  beforeAll(async () => {
    chain = await startEscrowChain({ version: opts.version ?? "3" });
    for (let i = 0; i < 8; i++) {
      await chain.setEth(extraAccount(i).address, 10n ** 20n);
    }
    await ready(chain);
  });
  beforeEach(async () => {
    snap = await chain!.anvil.testClient.snapshot();
  });
  afterEach(async () => {
    await chain!.anvil.testClient.revert({ id: snap! });
  });
  afterAll(async () => {
    await chain?.stop();
  });
}

export const now = async (chain: EscrowChain) => (await chain.anvil.publicClient.getBlock()).timestamp;
