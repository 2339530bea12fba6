import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPublicClient, createWalletClient, http, isAddress, type Abi, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

// Deploys contracts/MissionEscrow.sol v3 (from its checked-in artifact) — and, for a local chain,
// a TestUSDC — then prints the settings the server needs. Base deployment steps: README
// "Base rail"; the contract's keys and numbers: docs/base-rail.md "Trust model". Usage:
//   OABP_RPC_URL=… OABP_DEPLOYER_KEY=0x… OABP_TREASURY_ADDRESS=0x… \
//   (OABP_RESOLVER_ADDRESS=0x… | OABP_RESOLVER_KEY=0x…) OABP_ESCROW_ADMIN=0x… OABP_ESCROW_GUARDIAN=0x… \
//   [OABP_ESCROW_FEE_CAP_BPS=100] [OABP_ESCROW_ADMIN_DELAY_SECONDS=172800] [OABP_ESCROW_RELEASE_DELAY=86400] \
//   [OABP_ESCROW_CAP_PERIOD=86400] [OABP_ESCROW_CAPS='{"0xToken":"1000000000"}'] npm run escrow:deploy [-- --test-token]
// It prints the deployment block (set OABP_ESCROW_START_BLOCK to it) and names the admin — the
// deployer itself unless OABP_ESCROW_ADMIN is set, said plainly. On Base (8453) and Base Sepolia
// (84532) it refuses: a missing explicit admin or guardian, an admin delay under ADMIN_DELAY_FLOOR,
// and --test-token (a test token there would take real deposits nobody backs; a local anvil run
// with --chain-id 8453, as docker-compose does, identifies itself and may deploy one).
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const artifact = (name: string) =>
  JSON.parse(readFileSync(path.join(ROOT, "contracts", "artifacts", `${name}.json`), "utf8")) as {
    abi: Abi;
    bytecode: Hex;
  };

export interface DeployInput {
  rpcUrl: string;
  deployerKey: Hex;
  resolver: Address;
  treasury: Address;
  admin?: Address;
  /** Contract v3: may cancel a proposed release and pause releases (meant to be a multisig apart from the admin). */
  guardian?: Address;
  feeCapBps?: number;
  /** Seconds before a new admin, resolver or guardian takes effect (default 2 days). */
  adminDelay?: number;
  /** Contract v3: challenge window of the delayed release path, seconds (default 1 day). */
  releaseDelay?: number;
  /** Contract v3: cap window of the delayed path, seconds (default 1 day). */
  capPeriod?: number;
  /** Contract v3: token → most the delayed path pays per window (a token without one cannot use it). */
  caps?: Record<string, bigint>;
  testToken?: boolean;
}

/** Public chains where a test token must never be deployed as the reward token. */
export const NO_TEST_TOKEN_CHAINS = [8453, 84532];
/** Base and Base Sepolia: an explicit admin and guardian, and an admin delay of at least this, are required. */
export const PUBLIC_CHAINS = [8453, 84532];
export const ADMIN_DELAY_FLOOR = 2 * 86_400;
/** The delayed path's cap of a test token deployed with --test-token (10 000 units of 6 decimals). */
export const TEST_TOKEN_CAP = 10_000_000_000n;

/** The refusals on a public chain (docs/runbooks.md "Deploying"), before anything is sent. */
export function publicChainProblems(chainId: number, input: DeployInput): string[] {
  if (!PUBLIC_CHAINS.includes(chainId)) return [];
  const problems: string[] = [];
  if (!input.admin) problems.push("OABP_ESCROW_ADMIN (an explicit admin, e.g. a Safe) is required");
  if (!input.guardian) problems.push("OABP_ESCROW_GUARDIAN (an explicit guardian, e.g. a Safe) is required");
  const delay = input.adminDelay ?? ADMIN_DELAY_FLOOR;
  if (delay < ADMIN_DELAY_FLOOR)
    problems.push(`an admin delay of ${delay} s is below the floor of ${ADMIN_DELAY_FLOOR} s`);
  return problems.map((p) => `chain ${chainId}: ${p}`);
}

export async function deployEscrow(input: DeployInput): Promise<{
  chain_id: number;
  escrow: Address;
  /** The MissionEscrow version deployed (OABP_ESCROW_VERSION). */
  version: "4";
  deployment_block: number;
  test_token: Address | null;
  admin: Address;
  admin_is_deployer: boolean;
  admin_delay_seconds: number;
  resolver: Address;
  guardian: Address;
  treasury: Address;
  fee_cap_bps: number;
  release_delay_seconds: number;
  cap_period_seconds: number;
  caps: Record<string, string>;
}> {
  const account = privateKeyToAccount(input.deployerKey);
  const transport = http(input.rpcUrl, { retryCount: 0 });
  const pc = createPublicClient({ transport, pollingInterval: 100 });
  const chainId = await pc.getChainId();
  const problems = publicChainProblems(chainId, input);
  if (problems.length) throw new Error(`refused: ${problems.join("; ")}`);
  if (input.testToken && NO_TEST_TOKEN_CHAINS.includes(chainId)) {
    // A local anvil started with --chain-id 8453 (docker-compose) is the one exception: it says so.
    const client = await pc.request({ method: "web3_clientVersion" }).catch(() => "");
    if (!/^anvil\//i.test(String(client)))
      throw new Error(
        `--test-token is refused on chain ${chainId} (Base / Base Sepolia; node: ${String(client) || "unknown"}): use the real USDC`,
      );
  }
  const wc = createWalletClient({
    account,
    transport,
    chain: {
      id: chainId,
      name: `chain-${chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [input.rpcUrl] } },
    },
  });
  const deploy = async (name: string, args: readonly unknown[]) => {
    const a = artifact(name);
    const hash = await wc.deployContract({ abi: a.abi, bytecode: a.bytecode, args });
    const r = await pc.waitForTransactionReceipt({ hash });
    if (r.status !== "success" || !r.contractAddress) throw new Error(`deploying ${name} failed (${hash})`);
    return { address: r.contractAddress, block: Number(r.blockNumber) };
  };
  const testToken = input.testToken ? (await deploy("TestUSDC", [])).address : null;
  const admin = input.admin ?? account.address;
  const guardian = input.guardian ?? admin;
  const feeCapBps = input.feeCapBps ?? 100;
  const adminDelay = input.adminDelay ?? ADMIN_DELAY_FLOOR;
  const releaseDelay = input.releaseDelay ?? 86_400;
  const capPeriod = input.capPeriod ?? 86_400;
  // Contract v4's rolling cap books buckets of capPeriod / 4 (docs/base-rail.md "Trust model (contract v4)").
  if (capPeriod <= 0 || capPeriod % 4 !== 0)
    throw new Error(`OABP_ESCROW_CAP_PERIOD must be a positive multiple of 4 (got ${capPeriod})`);
  const caps: Record<string, bigint> = { ...(input.caps ?? {}) };
  if (testToken && caps[testToken] === undefined) caps[testToken] = TEST_TOKEN_CAP;
  const escrow = await deploy("MissionEscrow", [
    admin,
    input.resolver,
    guardian,
    input.treasury,
    feeCapBps,
    adminDelay,
    releaseDelay,
    capPeriod,
    Object.keys(caps),
    Object.values(caps),
  ]);
  return {
    chain_id: chainId,
    escrow: escrow.address,
    version: "4" as const,
    deployment_block: escrow.block,
    test_token: testToken,
    admin,
    admin_is_deployer: admin.toLowerCase() === account.address.toLowerCase(),
    admin_delay_seconds: adminDelay,
    resolver: input.resolver,
    guardian,
    treasury: input.treasury,
    fee_cap_bps: feeCapBps,
    release_delay_seconds: releaseDelay,
    cap_period_seconds: capPeriod,
    caps: Object.fromEntries(Object.entries(caps).map(([t, c]) => [t, c.toString()])),
  };
}

/** OABP_ESCROW_CAPS: a JSON object token address → cap in the token's smallest unit (a decimal string). */
export function parseCaps(json: string): Record<string, bigint> {
  const raw = JSON.parse(json) as unknown;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error("OABP_ESCROW_CAPS must be a JSON object");
  const caps: Record<string, bigint> = {};
  for (const [token, cap] of Object.entries(raw)) {
    if (!isAddress(token)) throw new Error(`OABP_ESCROW_CAPS: ${token} is not a 0x address`);
    if (typeof cap !== "string" || !/^\d+$/.test(cap))
      throw new Error(`OABP_ESCROW_CAPS: the cap of ${token} must be a decimal string`);
    caps[token] = BigInt(cap);
  }
  return caps;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const env = process.env;
  const need = (name: string) => {
    const v = env[name];
    if (!v) throw new Error(`${name} is required`);
    return v;
  };
  const addr = (name: string, v: string) => {
    if (!isAddress(v)) throw new Error(`${name} must be a 0x address`);
    return v as Address;
  };
  try {
    const resolver = env.OABP_RESOLVER_ADDRESS
      ? addr("OABP_RESOLVER_ADDRESS", env.OABP_RESOLVER_ADDRESS)
      : privateKeyToAccount(need("OABP_RESOLVER_KEY") as Hex).address; // the key itself is never printed
    const out = await deployEscrow({
      rpcUrl: need("OABP_RPC_URL"),
      deployerKey: need("OABP_DEPLOYER_KEY") as Hex,
      resolver,
      treasury: addr("OABP_TREASURY_ADDRESS", need("OABP_TREASURY_ADDRESS")),
      admin: env.OABP_ESCROW_ADMIN ? addr("OABP_ESCROW_ADMIN", env.OABP_ESCROW_ADMIN) : undefined,
      guardian: env.OABP_ESCROW_GUARDIAN ? addr("OABP_ESCROW_GUARDIAN", env.OABP_ESCROW_GUARDIAN) : undefined,
      feeCapBps: env.OABP_ESCROW_FEE_CAP_BPS ? Number(env.OABP_ESCROW_FEE_CAP_BPS) : undefined,
      adminDelay: env.OABP_ESCROW_ADMIN_DELAY_SECONDS ? Number(env.OABP_ESCROW_ADMIN_DELAY_SECONDS) : undefined,
      releaseDelay: env.OABP_ESCROW_RELEASE_DELAY ? Number(env.OABP_ESCROW_RELEASE_DELAY) : undefined,
      capPeriod: env.OABP_ESCROW_CAP_PERIOD ? Number(env.OABP_ESCROW_CAP_PERIOD) : undefined,
      caps: env.OABP_ESCROW_CAPS ? parseCaps(env.OABP_ESCROW_CAPS) : undefined,
      testToken: process.argv.includes("--test-token"),
    });
    console.log(JSON.stringify(out, null, 2));
    console.error(
      `admin: ${out.admin}${out.admin_is_deployer ? " — the DEPLOYER's own address (set OABP_ESCROW_ADMIN to name another, e.g. a multisig)" : ""}; guardian: ${out.guardian}; a new admin, resolver or guardian waits ${out.admin_delay_seconds} s`,
    );
    if (Object.keys(out.caps).length === 0)
      console.error("no OABP_ESCROW_CAPS: the delayed release path pays nothing (only funder-signed releases work)");
    console.error(
      `set OABP_ESCROW_ADDRESS=${out.escrow} OABP_CHAIN_ID=${out.chain_id} OABP_ESCROW_START_BLOCK=${out.deployment_block}${out.test_token ? ` and an OABP_ASSETS entry with addresses.base=${out.test_token}` : ""}`,
    );
  } catch (err) {
    console.error(`escrow:deploy failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
