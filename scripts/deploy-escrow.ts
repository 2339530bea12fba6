import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createPublicClient, createWalletClient, http, isAddress, type Abi, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

// Deploys contracts/MissionEscrow.sol (from its checked-in artifact) — and, for a local chain,
// a TestUSDC — then prints the settings the server needs. Base deployment steps: README
// "Base rail". Usage:
//   OABP_RPC_URL=… OABP_DEPLOYER_KEY=0x… OABP_TREASURY_ADDRESS=0x… \
//   (OABP_RESOLVER_ADDRESS=0x… | OABP_RESOLVER_KEY=0x…) [OABP_ESCROW_ADMIN=0x…] \
//   [OABP_ESCROW_FEE_CAP_BPS=100] [OABP_ESCROW_ADMIN_DELAY_SECONDS=172800] npm run escrow:deploy [-- --test-token]
// It prints the deployment block (set OABP_ESCROW_START_BLOCK to it), names the admin — the
// deployer itself unless OABP_ESCROW_ADMIN is set, said plainly — and refuses --test-token on
// Base (8453) and Base Sepolia (84532): a test token there would take real deposits nobody backs.
// (A local anvil run with --chain-id 8453, as docker-compose does, identifies itself and may.)

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
  feeCapBps?: number;
  /** Contract v2: seconds before a new admin or resolver takes effect (default 2 days). */
  adminDelay?: number;
  testToken?: boolean;
}

/** Public chains where a test token must never be deployed as the reward token. */
export const NO_TEST_TOKEN_CHAINS = [8453, 84532];

export async function deployEscrow(input: DeployInput): Promise<{
  chain_id: number;
  escrow: Address;
  deployment_block: number;
  test_token: Address | null;
  admin: Address;
  admin_is_deployer: boolean;
  admin_delay_seconds: number;
  resolver: Address;
  treasury: Address;
  fee_cap_bps: number;
}> {
  const account = privateKeyToAccount(input.deployerKey);
  const transport = http(input.rpcUrl, { retryCount: 0 });
  const pc = createPublicClient({ transport, pollingInterval: 100 });
  const chainId = await pc.getChainId();
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
  const feeCapBps = input.feeCapBps ?? 100;
  const adminDelay = input.adminDelay ?? 2 * 86_400;
  const escrow = await deploy("MissionEscrow", [admin, input.resolver, input.treasury, feeCapBps, adminDelay]);
  return {
    chain_id: chainId,
    escrow: escrow.address,
    deployment_block: escrow.block,
    test_token: testToken,
    admin,
    admin_is_deployer: admin.toLowerCase() === account.address.toLowerCase(),
    admin_delay_seconds: adminDelay,
    resolver: input.resolver,
    treasury: input.treasury,
    fee_cap_bps: feeCapBps,
  };
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
      feeCapBps: env.OABP_ESCROW_FEE_CAP_BPS ? Number(env.OABP_ESCROW_FEE_CAP_BPS) : undefined,
      adminDelay: env.OABP_ESCROW_ADMIN_DELAY_SECONDS ? Number(env.OABP_ESCROW_ADMIN_DELAY_SECONDS) : undefined,
      testToken: process.argv.includes("--test-token"),
    });
    console.log(JSON.stringify(out, null, 2));
    console.error(
      `admin: ${out.admin}${out.admin_is_deployer ? " — the DEPLOYER's own address (set OABP_ESCROW_ADMIN to name another, e.g. a multisig)" : ""}; a new admin or resolver waits ${out.admin_delay_seconds} s`,
    );
    console.error(
      `set OABP_ESCROW_ADDRESS=${out.escrow} OABP_CHAIN_ID=${out.chain_id} OABP_ESCROW_START_BLOCK=${out.deployment_block}${out.test_token ? ` and an OABP_ASSETS entry with addresses.base=${out.test_token}` : ""}`,
    );
  } catch (err) {
    console.error(`escrow:deploy failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
