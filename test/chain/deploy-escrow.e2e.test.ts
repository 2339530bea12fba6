import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getAddress, keccak256, toBytes, type Address } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { ADMIN_DELAY_FLOOR, TEST_TOKEN_CAP, deployEscrow, publicChainProblems } from "../../scripts/deploy-escrow";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { ANVIL_KEY_0, startAnvil, type Anvil } from "../helpers/anvil";

// `npm run escrow:deploy` for contract v3 (docs/runbooks.md "Deploying"): the script run as a real
// process against anvil posing as Base Sepolia (84532) and Base (8453) refuses a missing admin or
// guardian and a short admin delay, and deploys with every constructor argument when all is given.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const M = "test test test test test test test test test test test junk";
const who = (i: number) => mnemonicToAccount(M, { addressIndex: i }).address;
const BASE_ENV = { OABP_DEPLOYER_KEY: ANVIL_KEY_0, OABP_RESOLVER_ADDRESS: who(1), OABP_TREASURY_ADDRESS: who(2) };

function runScript(env: Record<string, string>, args: string[] = []) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/deploy-escrow.ts", ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const chains: Record<number, Anvil> = {};
beforeAll(async () => {
  chains[84532] = await startAnvil({ chainId: 84532 });
  chains[8453] = await startAnvil({ chainId: 8453 });
});
afterAll(async () => {
  for (const a of Object.values(chains)) await a.stop();
});

describe("escrow:deploy on Base and Base Sepolia", () => {
  it.each([84532, 8453])("chain %i: refuses a missing admin and guardian, sending nothing", async (chainId) => {
    const anvil = chains[chainId]!;
    const r = await runScript({ ...BASE_ENV, OABP_RPC_URL: anvil.rpcUrl });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/OABP_ESCROW_ADMIN .*required/);
    expect(r.stderr).toMatch(/OABP_ESCROW_GUARDIAN .*required/);
    expect(await anvil.publicClient.getTransactionCount({ address: who(0) })).toBe(0);
  });

  it.each([84532, 8453])("chain %i: refuses an admin delay below the floor", async (chainId) => {
    const anvil = chains[chainId]!;
    const r = await runScript({
      ...BASE_ENV,
      OABP_RPC_URL: anvil.rpcUrl,
      OABP_ESCROW_ADMIN: who(3),
      OABP_ESCROW_GUARDIAN: who(4),
      OABP_ESCROW_ADMIN_DELAY_SECONDS: String(ADMIN_DELAY_FLOOR - 1),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`below the floor of ${ADMIN_DELAY_FLOOR} s`);
    expect(r.stderr).not.toMatch(/OABP_ESCROW_ADMIN .*required/);
    expect(await anvil.publicClient.getTransactionCount({ address: who(0) })).toBe(0);
  });

  it("deploys v3 with every constructor argument when admin, guardian, delays and caps are given", async () => {
    const anvil = chains[84532]!;
    const token = getAddress(who(9)); // any address can carry a cap
    const r = await runScript({
      ...BASE_ENV,
      OABP_RPC_URL: anvil.rpcUrl,
      OABP_ESCROW_ADMIN: who(3),
      OABP_ESCROW_GUARDIAN: who(4),
      OABP_ESCROW_ADMIN_DELAY_SECONDS: String(3 * 86_400),
      OABP_ESCROW_RELEASE_DELAY: "7200",
      OABP_ESCROW_CAP_PERIOD: "43200",
      OABP_ESCROW_CAPS: JSON.stringify({ [token]: "5000000000" }),
    });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      escrow: Address;
      admin: string;
      guardian: string;
      admin_is_deployer: boolean;
    };
    expect(out).toMatchObject({ admin: who(3), guardian: who(4), admin_is_deployer: false });
    const read = <T>(functionName: string, args: unknown[] = []) =>
      anvil.publicClient.readContract({
        address: out.escrow,
        abi: missionEscrowAbi,
        functionName: functionName as never,
        args: args as never,
      }) as Promise<T>;
    expect(await read("version")).toBe("4");
    expect(await read("defaultAdmin")).toBe(who(3));
    expect(await read("defaultAdminDelay")).toBe(3 * 86_400);
    expect(await read("hasRole", [keccak256(toBytes("GUARDIAN_ROLE")), who(4)])).toBe(true);
    expect(await read("hasRole", [keccak256(toBytes("RESOLVER_ROLE")), who(1)])).toBe(true);
    expect([await read("releaseDelay"), await read("capPeriod")]).toEqual([7200, 43200]);
    expect(await read("releaseCap", [token])).toBe(5_000_000_000n);
  });

  it("lets anvil posing as 8453 deploy a test token (docker-compose) and caps it by default", async () => {
    // anvil identifies itself, so --test-token passes here (docker-compose's local 8453).
    const out = await deployEscrow({
      rpcUrl: chains[8453]!.rpcUrl,
      deployerKey: ANVIL_KEY_0,
      resolver: who(1),
      treasury: who(2),
      admin: who(3),
      guardian: who(4),
      testToken: true,
    });
    expect(out.caps[out.test_token!]).toBe(TEST_TOKEN_CAP.toString());
  });
});

describe("escrow:deploy elsewhere, and docker-compose", () => {
  it("a local chain takes the deployer as admin and guardian and any admin delay", async () => {
    const anvil = await startAnvil({ chainId: 31337 });
    try {
      const out = await deployEscrow({
        rpcUrl: anvil.rpcUrl,
        deployerKey: ANVIL_KEY_0,
        resolver: who(1),
        treasury: who(2),
        adminDelay: 60,
      });
      expect(out).toMatchObject({ admin: who(0), guardian: who(0), admin_is_deployer: true, admin_delay_seconds: 60 });
    } finally {
      await anvil.stop();
    }
  });

  it("docker-compose's deploy service passes the Base checks (explicit admin and guardian, default delay)", () => {
    const compose = YAML.parse(readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8"));
    const env = compose.services.deploy.environment as Record<string, string>;
    const input = {
      rpcUrl: "",
      deployerKey: env.OABP_DEPLOYER_KEY as `0x${string}`,
      resolver: env.OABP_RESOLVER_ADDRESS as Address,
      treasury: env.OABP_TREASURY_ADDRESS as Address,
      admin: env.OABP_ESCROW_ADMIN as Address,
      guardian: env.OABP_ESCROW_GUARDIAN as Address,
    };
    expect(publicChainProblems(8453, input)).toEqual([]);
    expect(publicChainProblems(8453, { ...input, admin: undefined })).toHaveLength(1);
    expect(env.OABP_ESCROW_GUARDIAN).not.toBe(env.OABP_ESCROW_ADMIN);
  });
});
