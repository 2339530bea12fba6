import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { checkDepositReceipt, type DepositTerms } from "../../src/features/deposits/deposits.check";
import { parseEnv } from "../../src/env";
import type { FundedLog, TxReceipt } from "../../src/lib/base-chain";

// Pure rules of the base rail: deposit verification and its configuration.

const ESCROW = "0x00000000000000000000000000000000000000e5";
const KEY = `0x${"11".repeat(32)}` as const;
const TOKEN = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
const terms: DepositTerms = {
  escrow: ESCROW,
  missionKey: KEY,
  token: TOKEN,
  reward: 100n,
  spamFee: 5n,
  refundAfter: 2_000_000_000,
};
const log = (over: Partial<FundedLog> = {}): FundedLog => ({
  address: ESCROW,
  missionKey: KEY,
  funder: "0x00000000000000000000000000000000000000f1",
  token: TOKEN,
  amount: 100n,
  spamFee: 5n,
  refundAfter: 2_000_000_000n,
  txHash: `0x${"aa".repeat(32)}`,
  logIndex: 0,
  blockNumber: 10,
  blockHash: `0x${"bb".repeat(32)}`,
  ...over,
});
const receipt = (funded: FundedLog[], status: "success" | "reverted" = "success"): TxReceipt => ({
  txHash: `0x${"aa".repeat(32)}`,
  status,
  blockNumber: 10,
  blockHash: `0x${"bb".repeat(32)}`,
  to: ESCROW,
  funded,
  credited: [],
});

describe("deposit verification", () => {
  it("accepts a log of the escrow for the key, in the token, with reward and spam fee covered (more is fine)", () => {
    expect(checkDepositReceipt(receipt([log()]), terms)).toMatchObject({ ok: true });
    expect(checkDepositReceipt(receipt([log({ amount: 150n, spamFee: 9n })]), terms)).toMatchObject({ ok: true });
  });

  it("names what is wrong, and says whether a slot of this mission holds money (log set) or not", () => {
    const r = (rc: TxReceipt | null) => {
      const c = checkDepositReceipt(rc, terms);
      return c.ok ? "ok" : `${c.reason}${c.log ? "+slot" : ""}`;
    };
    expect(r(null)).toBe("tx_not_found");
    expect(r(receipt([log()], "reverted"))).toBe("tx_failed");
    expect(r(receipt([]))).toBe("no_funded_log");
    expect(r(receipt([log({ address: "0x00000000000000000000000000000000000000e6" })]))).toBe("wrong_contract");
    expect(r(receipt([log({ missionKey: `0x${"22".repeat(32)}` })]))).toBe("wrong_mission_key");
    expect(r(receipt([log({ token: "0x00000000000000000000000000000000000000aa" })]))).toBe("token_not_allowed+slot");
    expect(r(receipt([log({ amount: 99n })]))).toBe("amount_short+slot");
    expect(r(receipt([log({ spamFee: 4n })]))).toBe("spam_fee_short+slot");
    // Contract v2: a refund-after before the mission's would let the funder leave before the payout.
    expect(r(receipt([log({ refundAfter: 1_999_999_999n })]))).toBe("refund_after_short+slot");
    expect(checkDepositReceipt(receipt([log({ refundAfter: 1n })]), { ...terms, refundAfter: null })).toMatchObject({
      ok: true,
    });
  });

  it("picks this mission's log among several in one transaction", () => {
    const other = log({ missionKey: `0x${"22".repeat(32)}`, logIndex: 0 });
    const mine = log({ logIndex: 3 });
    const c = checkDepositReceipt(receipt([other, mine]), terms);
    expect(c).toMatchObject({ ok: true, log: { logIndex: 3 } });
  });
});

describe("base rail configuration", () => {
  const KEY_HEX = `0x${"7".repeat(64)}`;
  const rail = {
    OABP_RPC_URL: "http://127.0.0.1:8545",
    OABP_ESCROW_ADDRESS: `0x${"e5".repeat(20)}`,
    OABP_RESOLVER_KEY: KEY_HEX,
  };

  it("is off unless RPC, escrow and resolver key are all set, and says why", () => {
    expect(parseEnv({}).baseRailOff).toBe("no_rpc_url");
    expect(parseEnv({ OABP_RPC_URL: rail.OABP_RPC_URL }).baseRailOff).toBe("no_escrow_address");
    expect(
      parseEnv({ OABP_RPC_URL: rail.OABP_RPC_URL, OABP_ESCROW_ADDRESS: rail.OABP_ESCROW_ADDRESS }).baseRailOff,
    ).toBe("no_resolver_key");
    const on = parseEnv(rail);
    expect(on.baseRailOff).toBeNull();
    expect(on.baseRail).toMatchObject({
      chainId: 8453,
      confirmations: { kind: "tag", tag: "safe" },
      finality: { kind: "tag", tag: "finalized" },
    });
  });

  it("never prints the resolver key: JSON, inspect, template strings", () => {
    const c = parseEnv(rail);
    expect(c.baseRail!.resolverKey!.reveal()).toBe(KEY_HEX);
    expect(JSON.stringify(c)).not.toContain("7777777");
    expect(inspect(c, { depth: 10 })).not.toContain("7777777");
    expect(`${c.baseRail!.resolverKey}`).toBe("[redacted]");
  });

  it("reads the key from a file, and a bad file's error never echoes its content", () => {
    const files: Record<string, string> = { "/k": `${KEY_HEX}\n`, "/bad": "secret-but-not-a-key" };
    const read = (p: string) => {
      if (!(p in files)) throw Object.assign(new Error("nope"), { code: "ENOENT" });
      return files[p]!;
    };
    const { OABP_RESOLVER_KEY: _k, ...noKey } = rail;
    expect(parseEnv({ ...noKey, OABP_RESOLVER_KEY_FILE: "/k" }, read).baseRail!.resolverKey!.reveal()).toBe(KEY_HEX);
    expect(() => parseEnv({ ...noKey, OABP_RESOLVER_KEY_FILE: "/bad" }, read)).toThrow(/OABP_RESOLVER_KEY_FILE/);
    try {
      parseEnv({ ...noKey, OABP_RESOLVER_KEY_FILE: "/bad" }, read);
    } catch (e) {
      expect((e as Error).message).not.toContain("secret-but-not-a-key");
    }
    expect(() => parseEnv({ ...noKey, OABP_RESOLVER_KEY_FILE: "/missing" }, read)).toThrow(/ENOENT/);
    expect(() => parseEnv({ ...rail, OABP_RESOLVER_KEY_FILE: "/k" }, read)).toThrow(/not both/);
    expect(() => parseEnv({ ...rail, OABP_RESOLVER_KEY: "0x1234" })).toThrow(/OABP_RESOLVER_KEY/);
  });

  it("takes a block-count confirmation policy for chains without safe/finalized tags; USDC preset per chain", () => {
    const c = parseEnv({ ...rail, OABP_CONFIRMATIONS: "3", OABP_FINALITY: "12", OABP_CHAIN_ID: "84532" });
    expect(c.baseRail).toMatchObject({
      chainId: 84532,
      confirmations: { kind: "blocks", blocks: 3 },
      finality: { kind: "blocks", blocks: 12 },
    });
    expect(c.assets[0]!.addresses.base).toBe("0x036CbD53842c5426634e7929541eC2318f3dCF7e");
    expect(parseEnv({}).assets[0]!.addresses.base).toBe("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    expect(() => parseEnv({ OABP_CONFIRMATIONS: "latest" })).toThrow(/OABP_CONFIRMATIONS/);
  });
});

describe("npm run escrow:deploy", () => {
  it("deploys the escrow (and a test token) with the given roles, at the addresses docker-compose expects on a fresh anvil", async () => {
    const { startAnvil, ANVIL_KEY_0 } = await import("../helpers/anvil");
    const { deployEscrow } = await import("../../scripts/deploy-escrow");
    const { missionEscrowAbi } = await import("../../src/lib/abi/mission-escrow");
    const { keccak256, toBytes } = await import("viem");
    const anvil = await startAnvil({ chainId: 8453 });
    try {
      const resolver = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
      const treasury = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
      const out = await deployEscrow({
        rpcUrl: anvil.rpcUrl,
        deployerKey: ANVIL_KEY_0,
        resolver,
        treasury,
        // Chain 8453 requires an explicit admin and guardian (docs/runbooks.md "Deploying").
        admin: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        guardian: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
        testToken: true,
      });
      // docker-compose.yml hard-codes these: account 0's first two deployments on a fresh chain.
      expect({ ...out, test_token: out.test_token?.toLowerCase(), escrow: out.escrow.toLowerCase() }).toMatchObject({
        chain_id: 8453,
        test_token: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
        escrow: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
        fee_cap_bps: 100,
      });
      // It names the admin (here the deployer itself, said plainly) and the block to start scanning from.
      expect(out).toMatchObject({
        admin: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        admin_is_deployer: true,
        admin_delay_seconds: 172_800,
      });
      expect(out.deployment_block).toBe(Number(await anvil.publicClient.getBlockNumber()));
      const read = (functionName: "treasury" | "feeCapBps") =>
        anvil.publicClient.readContract({ address: out.escrow, abi: missionEscrowAbi, functionName });
      expect(await read("treasury")).toBe(treasury);
      expect(
        await anvil.publicClient.readContract({
          address: out.escrow,
          abi: missionEscrowAbi,
          functionName: "hasRole",
          args: [keccak256(toBytes("RESOLVER_ROLE")), resolver],
        }),
      ).toBe(true);
    } finally {
      await anvil.stop();
    }
  });
});

describe("docker-compose.yml (no Docker engine in CI: its wiring is checked here)", () => {
  it("configures the server with the deploy service's addresses and roles", async () => {
    const { readFileSync } = await import("node:fs");
    const YAML = await import("yaml");
    const { getContractAddress } = await import("viem");
    const { privateKeyToAccount } = await import("viem/accounts");
    const compose = YAML.parse(readFileSync(new URL("../../docker-compose.yml", import.meta.url), "utf8"));
    const deploy = compose.services.deploy.environment;
    const server = compose.services.server.environment;
    const deployer = privateKeyToAccount(deploy.OABP_DEPLOYER_KEY).address;
    expect(server.OABP_ESCROW_ADDRESS).toBe(getContractAddress({ from: deployer, nonce: 1n }));
    expect(JSON.parse(server.OABP_ASSETS)[0].addresses.base).toBe(getContractAddress({ from: deployer, nonce: 0n }));
    expect(privateKeyToAccount(server.OABP_RESOLVER_KEY).address).toBe(deploy.OABP_RESOLVER_ADDRESS);
    // Compose interpolation: ${X:-default} → default, ${X:?message} → a value the operator must set.
    const resolved = Object.fromEntries(
      Object.entries(server as Record<string, string>).map(([k, v]) => [
        k,
        v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1").replace(/\$\{[A-Z_]+:\?[^}]*\}/g, "set-by-the-operator-0123456789"),
      ]),
    );
    expect(parseEnv(resolved).baseRailOff).toBeNull();
    expect(compose.services.server.depends_on.deploy.condition).toBe("service_completed_successfully");
  });
});

describe("manifest with the rail off", () => {
  it("says the base rail is off and why; no EVM chain listed, the ledger rail described apart (AIP-1 §9 chains: EVM chain names)", async () => {
    const { buildManifest } = await import("../../src/features/manifest/manifest");
    const { generateKeyring } = await import("../../src/lib/receipt-keys");
    const m = buildManifest({
      config: parseEnv({ OABP_RPC_URL: "http://127.0.0.1:8545" }),
      keyring: generateKeyring(new Date("2026-06-01T00:00:00Z")),
    });
    expect(m.chain).toBe("off-chain");
    expect(m.payment_options.chains).toEqual([]);
    expect(m.payment_options.ledger).toMatchObject({ enabled: true });
    expect(m.payment_options.base).toEqual({ enabled: false, off_reason: "no_escrow_address" });
  });
});
