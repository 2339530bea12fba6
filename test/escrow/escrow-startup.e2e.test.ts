import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env";
import { createBaseChain } from "../../src/lib/base-chain.viem";
import { checkBaseRail } from "../../src/features/rail/rail.startup";
import { startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";
import { startServer } from "../helpers/process";

// Start-up refuses each misconfiguration of the base rail with a message
// naming the setting — chain id, bytecode at the escrow address, resolver role, fee cap,
// treasury, an RPC that does not answer — and a key-less API process (OABP_RESOLVER_ADDRESS) starts.

let chain: EscrowChain;
beforeAll(async () => {
  chain = await startEscrowChain();
});
afterAll(async () => {
  await chain?.stop();
});

const check = (over: Record<string, string>) => {
  const config = parseEnv({ LOG_LEVEL: "silent", ...chain.env(over) });
  return checkBaseRail(createBaseChain(config.baseRail!), config);
};

describe("start-up checks of the base rail", () => {
  it("the right configuration passes", async () => {
    await expect(check({ OABP_TREASURY_ADDRESS: chain.treasury })).resolves.toBeUndefined();
  });

  it("refuses each misconfiguration with a message naming it", async () => {
    await expect(check({ OABP_CHAIN_ID: "84532" })).rejects.toThrow(
      /OABP_CHAIN_ID: configured 84532, but the RPC .* serves chain 8453/,
    );
    await expect(check({ OABP_ESCROW_ADDRESS: privateKeyToAccount(generatePrivateKey()).address })).rejects.toThrow(
      /OABP_ESCROW_ADDRESS: no contract code/,
    );
    await expect(check({ OABP_ESCROW_ADDRESS: chain.usdc })).rejects.toThrow(/RESOLVER_ROLE/); // code, but not an escrow
    await expect(check({ OABP_RESOLVER_KEY: generatePrivateKey() })).rejects.toThrow(
      /OABP_RESOLVER_KEY: 0x[0-9a-f]{40} does not hold RESOLVER_ROLE/,
    );
    const lowCap = await chain.deployEscrow({ feeCapBps: 10 });
    await expect(check({ OABP_ESCROW_ADDRESS: lowCap })).rejects.toThrow(
      /OABP_FEE_BPS: 50 bps exceeds the escrow's fee cap of 10 bps/,
    );
    await expect(check({ OABP_TREASURY_ADDRESS: privateKeyToAccount(generatePrivateKey()).address })).rejects.toThrow(
      /OABP_TREASURY_ADDRESS: configured 0x[0-9a-f]{40}, but the escrow pays fees to/,
    );
    await expect(check({ OABP_RPC_URL: "http://127.0.0.1:9" })).rejects.toThrow(
      /OABP_RPC_URL: the RPC does not answer/,
    );
  });

  it("a key-less API process passes the checks, holds no key and never settles", async () => {
    const { OABP_RESOLVER_KEY: _k, ...env } = chain.env();
    const config = parseEnv({ LOG_LEVEL: "silent", ...env, OABP_RESOLVER_ADDRESS: chain.resolver.address });
    expect(config.baseRail?.resolverKey).toBeNull();
    const c = createBaseChain(config.baseRail!);
    expect(c.canSign).toBe(false);
    expect(c.resolver).toBe(chain.resolver.address.toLowerCase());
    await expect(checkBaseRail(c, config)).resolves.toBeUndefined();
    await expect(
      c.sign(
        { kind: "refund", missionKey: `0x${"00".repeat(32)}`, funder: chain.treasury },
        { nonce: 0, gas: 1n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
      ),
    ).rejects.toThrow(/no resolver key/);
  });

  it("the real process exits at start with the message", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oabp-startup-"));
    const started = startServer({
      ...chain.env({ OABP_CHAIN_ID: "84532" }),
      OABP_DATA_DIR: dir,
      DATABASE_URL: process.env.DATABASE_URL ?? "",
    });
    await expect(started).rejects.toThrow(/exited early \(1\).*OABP_CHAIN_ID: configured 84532/s);
  });
});
