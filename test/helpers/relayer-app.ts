import type { Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, beforeAll } from "vitest";
import { makeTestApp, type TestApp } from "./app";
import { startEscrowChain, type EscrowChain } from "./escrow-chain";

// docs/payments.md: the server's relayer sends the gasless USDC calls (x402 settlement,
// fundWithAuthorization) and pays their gas. Here it is anvil's dev account 3 ("test … junk").

const MNEMONIC = "test test test test test test test test test test test junk";
export const relayer = mnemonicToAccount(MNEMONIC, { addressIndex: 3 });
const relayerKey = `0x${Buffer.from(relayer.getHdKey().privateKey!).toString("hex")}` as Hex;

/**
 * One anvil with the escrow (`version`, default v4) and one test app holding the relayer's key, for
 * the whole file; `ready` receives both once they run, then both stop after the file.
 */
export function useRelayerApp(
  ready: (s: { chain: EscrowChain; t: TestApp }) => unknown,
  opts: { version?: "3" | "4" } = {},
): void {
  let chain: EscrowChain | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    chain = await startEscrowChain(opts);
    t = await makeTestApp(chain.env({ OABP_RELAYER_KEY: relayerKey }));
    await ready({ chain, t });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });
}
