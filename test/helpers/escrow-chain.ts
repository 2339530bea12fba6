import {
  createWalletClient,
  erc20Abi,
  http,
  parseAbi,
  parseAbiParameters,
  type Address,
  type Chain,
  type Hex,
  type Transport,
  type WalletClient,
} from "viem";
import { mnemonicToAccount, type HDAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll } from "vitest";
import { missionEscrowAbi as missionEscrowV4Abi } from "../../src/lib/abi/mission-escrow";
import { missionEscrowV3Abi as missionEscrowAbi } from "../../src/lib/abi/mission-escrow-v3";
import { startAnvil, type Anvil } from "./anvil";

// A local Base (anvil, chain id 8453) with TestUSDC and MissionEscrow deployed, for the base-rail
// tests. `--slots-in-an-epoch 2` makes anvil's "safe" head latest − 2 and "finalized" latest − 4,
// so the server's default confirmation policy (safe / finalized) is exercised as configured.
// The escrow is contract v3 or v4 (`version`; docs/base-rail.md "Trust model"): a guardian, a short
// challenge window for the delayed release path and a per-period cap for TestUSDC.

const MNEMONIC = "test test test test test test test test test test test junk";
export const FEE_CAP_BPS = 100;
/** A new admin, resolver or guardian waits this long (seconds). */
export const ADMIN_DELAY = 3600;
/** Contract v3: a proposed (delayed-path) release is executable this long after its proposal (seconds). */
export const RELEASE_DELAY = 600;
/** Contract v3: the delayed path's cap window (seconds). */
export const CAP_PERIOD = 86_400;
/** Contract v3: what the delayed path may pay out of TestUSDC per window (1,000,000 USDC). */
export const USDC_RELEASE_CAP = 1_000_000_000_000n;
/** Mnemonic index of the guardian (outside anvil's ten pre-funded accounts; given gas at start). */
export const GUARDIAN_INDEX = 10;

/** EIP-712 `Release` of contract v3 (contracts/legacy/MissionEscrowV3.sol, path 1). */
export const RELEASE_TYPES = {
  Release: parseAbiParameters(
    "bytes32 missionKey, address funder, address[] recipients, uint256[] amounts, uint256 fee",
  ),
} as const;

/** EIP-712 `Release` of contract v4 (contracts/MissionEscrow.sol, path 1): bound to the slot's token, instance and a deadline. */
export const RELEASE_TYPES_V4 = {
  Release: parseAbiParameters(
    "bytes32 missionKey, address funder, address token, uint256 fundingNonce, address[] recipients, uint256[] amounts, uint256 fee, uint256 deadline",
  ),
} as const;

export interface ReleaseTerms {
  missionKey: Hex;
  /** The slot's funder; defaults to the signing account's address (an ERC-1271 wallet names itself here). */
  funder?: Address;
  recipients: Address[];
  amounts: bigint[];
  fee: bigint;
}

/** A v4 release's extra terms: the slot's token and funding nonce, and the signature's deadline (unix s). */
export interface ReleaseTermsV4 extends ReleaseTerms {
  token: Address;
  fundingNonce: bigint;
  deadline: bigint;
}

type Signer = PrivateKeyAccount | HDAccount;
/** The escrow's EIP-712 domain: the contract's name, its version and where it runs. */
const releaseDomain = (version: "3" | "4", d: { chainId: number; escrow: Address }) =>
  ({ name: "MissionEscrow", version, chainId: d.chainId, verifyingContract: d.escrow }) as const;

/** The funder's EIP-712 signature of a v4 release. */
export function signReleaseV4With(
  account: Signer,
  domain: { chainId: number; escrow: Address },
  terms: ReleaseTermsV4,
) {
  return account.signTypedData({
    domain: releaseDomain("4", domain),
    types: RELEASE_TYPES_V4,
    primaryType: "Release",
    message: { ...terms, funder: terms.funder ?? account.address },
  });
}

/** The funder's EIP-712 signature over a release (viem signTypedData), as the board and client make it. */
export function signReleaseWith(account: Signer, domain: { chainId: number; escrow: Address }, terms: ReleaseTerms) {
  // Only the v3 fields: a v4 terms object passed here must not carry its extra fields along.
  const { missionKey, recipients, amounts, fee } = terms;
  const message = { missionKey, funder: terms.funder ?? account.address, recipients, amounts, fee };
  return account.signTypedData({
    domain: releaseDomain("3", domain),
    types: RELEASE_TYPES,
    primaryType: "Release",
    message,
  });
}

const usdcAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function setBlacklisted(address account, bool value)",
]);

export interface EscrowChain {
  anvil: Anvil;
  usdc: Address;
  escrow: Address;
  admin: HDAccount;
  resolver: HDAccount;
  resolverKey: Hex;
  /** Contract v3: may cancel a proposed release and pause releases. */
  guardian: HDAccount;
  treasury: Address;
  /** Server env for the base rail on this chain. */
  env(over?: Record<string, string>): Record<string, string>;
  mine(blocks?: number): Promise<void>;
  /** Moves chain time forward (anvil evm_increaseTime) and mines a block with the new time. */
  increaseTime(seconds: number): Promise<void>;
  /** A wallet client of `account` on this chain. */
  wallet(account: PrivateKeyAccount | HDAccount): WalletClient<Transport, Chain, PrivateKeyAccount | HDAccount>;
  /** The escrow's contract version ("3": contracts/legacy/MissionEscrowV3.sol, "4": contracts/MissionEscrow.sol). */
  version: "3" | "4";
  /** Deploys another escrow of this chain's version (`over.version`: another) with its roles and settings (`over`: a different fee cap). */
  deployEscrow(over?: { feeCapBps?: number; version?: "3" | "4" }): Promise<Address>;
  /** Deploys the previous contract (v2, contracts/legacy/MissionEscrowV2.sol) with this chain's admin, resolver and treasury. */
  deployEscrowV2(): Promise<Address>;
  /** `funder`'s EIP-712 signature of a v3 release on this escrow (`opts.escrow`: another deployment). */
  signRelease(funder: PrivateKeyAccount | HDAccount, terms: ReleaseTerms, opts?: { escrow?: Address }): Promise<Hex>;
  mint(to: Address, amount: bigint, token?: Address): Promise<void>;
  /**
   * Gives `account` gas money and `amount + spamFee` USDC, approves the escrow, funds (`fundUntil`
   * when `refundAfter` is given, else `fund`); returns the funding tx hash.
   */
  fund(
    account: PrivateKeyAccount | HDAccount,
    missionKey: Hex,
    amount: bigint,
    spamFee: bigint,
    opts?: { token?: Address; escrow?: Address; refundAfter?: bigint; signedOnlyUntil?: bigint; version?: "3" | "4" },
  ): Promise<Hex>;
  usdcBalance(who: string): Promise<bigint>;
  ethBalance(who: string): Promise<bigint>;
  setEth(who: string, wei: bigint): Promise<void>;
  released(missionKey: Hex): Promise<boolean>;
  /** Counts Released logs of the escrow for this key (double-payment checks). */
  releasedLogs(missionKey: Hex): Promise<number>;
  stop(): Promise<void>;
}

export async function startEscrowChain(
  opts: { rpcUrl?: (anvil: Anvil) => string; version?: "3" | "4" } = {},
): Promise<EscrowChain> {
  const version = opts.version ?? "4";
  const anvil = await startAnvil({ chainId: 8453, args: ["--slots-in-an-epoch", "2"] });
  const admin = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
  const resolver = mnemonicToAccount(MNEMONIC, { addressIndex: 1 });
  const treasury = mnemonicToAccount(MNEMONIC, { addressIndex: 2 }).address;
  const guardian = mnemonicToAccount(MNEMONIC, { addressIndex: GUARDIAN_INDEX });
  const resolverKey = `0x${Buffer.from(resolver.getHdKey().privateKey!).toString("hex")}` as Hex;
  const usdc = await anvil.deploy("TestUSDC");
  const deployEscrow = (over: { feeCapBps?: number; version?: "3" | "4" } = {}) =>
    anvil.deploy((over.version ?? version) === "4" ? "MissionEscrow" : "MissionEscrowV3", [
      admin.address,
      resolver.address,
      guardian.address,
      treasury,
      over.feeCapBps ?? FEE_CAP_BPS,
      ADMIN_DELAY,
      RELEASE_DELAY,
      CAP_PERIOD,
      [usdc],
      [USDC_RELEASE_CAP],
    ]);
  const escrow = await deployEscrow();
  await anvil.testClient.setBalance({ address: guardian.address, value: 10n ** 20n });
  const pc = anvil.publicClient;
  const wallet = (account: PrivateKeyAccount | HDAccount) =>
    createWalletClient({
      chain: anvil.chain,
      transport: http(anvil.rpcUrl, { retryCount: 0 }),
      account,
      pollingInterval: 50,
    });
  const waitOk = async (hash: Hex) => {
    const r = await pc.waitForTransactionReceipt({ hash });
    if (r.status !== "success") throw new Error(`tx ${hash} reverted`);
  };
  const mint = async (to: Address, amount: bigint, token: Address = usdc) =>
    waitOk(
      await anvil.walletClient.writeContract({
        address: token,
        abi: usdcAbi,
        functionName: "mint",
        args: [to, amount],
      }),
    );

  return {
    anvil,
    usdc,
    escrow,
    version,
    admin,
    resolver,
    resolverKey,
    guardian,
    treasury,
    env: (over = {}) => ({
      OABP_RPC_URL: opts.rpcUrl ? opts.rpcUrl(anvil) : anvil.rpcUrl,
      OABP_CHAIN_ID: "8453",
      OABP_ESCROW_ADDRESS: escrow,
      OABP_ESCROW_VERSION: version,
      OABP_RESOLVER_KEY: resolverKey,
      OABP_ESCROW_START_BLOCK: "0",
      OABP_CHAIN_POLL_MS: String(POLL_MS),
      OABP_ASSETS: JSON.stringify([
        { symbol: "USDC", decimals: 6, spam_fee: "5000000", usd_price: 1, addresses: { base: usdc } },
      ]),
      ...over,
    }),
    mine: async (blocks = 1) => anvil.testClient.mine({ blocks }),
    async increaseTime(seconds) {
      await anvil.testClient.increaseTime({ seconds });
      await anvil.testClient.mine({ blocks: 1 });
    },
    wallet,
    deployEscrow,
    deployEscrowV2: () =>
      anvil.deploy("MissionEscrowV2", [admin.address, resolver.address, treasury, FEE_CAP_BPS, ADMIN_DELAY]),
    signRelease: (funder, terms, o = {}) =>
      signReleaseWith(funder, { chainId: anvil.chainId, escrow: o.escrow ?? escrow }, terms),
    mint,
    async fund(account, missionKey, amount, spamFee, o = {}) {
      await anvil.testClient.setBalance({ address: account.address, value: 10n ** 18n });
      const token = o.token ?? usdc;
      await mint(account.address, amount + spamFee, token); // any TestUSDC deployment
      const w = wallet(account);
      await waitOk(
        await w.writeContract({
          address: token,
          abi: erc20Abi,
          functionName: "approve",
          args: [o.escrow ?? escrow, amount + spamFee],
        }),
      );
      const v4 = (o.version ?? version) === "4";
      const hash = v4
        ? await w.writeContract({
            address: o.escrow ?? escrow,
            abi: missionEscrowV4Abi,
            functionName: "fundUntil",
            args: [
              missionKey,
              token,
              amount,
              spamFee,
              o.refundAfter ?? (await pc.getBlock()).timestamp + 365n * 86_400n,
              o.signedOnlyUntil ?? 0n,
            ],
          })
        : o.refundAfter === undefined
          ? await w.writeContract({
              address: o.escrow ?? escrow,
              abi: missionEscrowAbi,
              functionName: "fund",
              args: [missionKey, token, amount, spamFee],
            })
          : await w.writeContract({
              address: o.escrow ?? escrow,
              abi: missionEscrowAbi,
              functionName: "fundUntil",
              args: [missionKey, token, amount, spamFee, o.refundAfter],
            });
      await waitOk(hash);
      return hash;
    },
    usdcBalance: (who) =>
      pc.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [who as Address] }),
    ethBalance: (who) => pc.getBalance({ address: who as Address }),
    setEth: (who, wei) => anvil.testClient.setBalance({ address: who as Address, value: wei }),
    released: (k) => pc.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "released", args: [k] }),
    async releasedLogs(k) {
      const logs = await pc.getContractEvents({
        address: escrow,
        abi: missionEscrowAbi,
        eventName: "Released",
        args: { missionKey: k },
        fromBlock: 0n,
        toBlock: "latest",
      });
      return logs.length;
    },
    stop: () => anvil.stop(),
  };
}

/**
 * Starts anvil with the contracts and a test app on it (`env`: overrides of `chain.env()`) before the
 * file's tests, and hands both to `ready`; closes the app, then stops the chain, after them.
 */
export function useEscrowApp(
  ready: (chain: EscrowChain, t: import("./app").TestApp) => void,
  opts: { env?: Record<string, string>; limits?: Partial<import("../../src/deps").Limits>; version?: "3" | "4" } = {},
): void {
  let chain: EscrowChain | undefined;
  let t: import("./app").TestApp | undefined;
  beforeAll(async () => {
    chain = await startEscrowChain({ version: opts.version });
    // Loaded here, like the helpers below: files that only need the chain don't load the app.
    const { makeTestApp } = await import("./app");
    t = await makeTestApp(chain.env(opts.env), { limits: opts.limits });
    ready(chain, t);
  });
  afterAll(async () => {
    // A failed start leaves these unset.
    await t?.close();
    await chain?.stop();
  });
}

/** The chain poll interval the tests configure (OABP_CHAIN_POLL_MS). */
export const POLL_MS = 1_000;

/**
 * One job round of the base rail, as the runner does it: the watcher, then the settlement worker.
 * The manual clock first moves one poll interval, as real time does between two polls.
 */
export async function escrowTick(app: {
  deps: import("../../src/deps").Deps;
  clock?: { advance(ms: number): void };
}): Promise<void> {
  const { watchEscrow } = await import("../../src/features/deposits/deposits.watcher");
  const { runPayouts } = await import("../../src/features/payouts/payouts.worker");
  app.clock?.advance(POLL_MS);
  await watchEscrow(app.deps);
  await runPayouts(app.deps);
}

/** A signed-in creator's new base-rail mission (pending_escrow) and its escrow key. */
export async function createBaseMission(app: import("./app").TestApp, reward: bigint) {
  const { missionBody, signIn } = await import("./agents");
  const creator = await signIn(app);
  const r = await app.call("POST", "/missions", {
    token: creator.token,
    body: missionBody(app, { reward: { asset: "USDC", amount: reward.toString(), chain: "base" } }),
  });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return { creator, m: r.body, key: r.body.escrow.mission_key as Hex };
}

/**
 * Runs base-rail rounds until every payout of the mission is confirmed (or final), whichever
 * release path it takes: a delayed-path payout is proposed, then anvil's clock jumps the
 * contract's challenge window (RELEASE_DELAY) once and the app's clock one watch interval a
 * round, so the proposal becomes executable. Bounded: throws after `rounds` rounds.
 */
export async function settleMission(
  app: { deps: import("../../src/deps").Deps; clock: { advance(ms: number): void } },
  chain: EscrowChain,
  missionId: string,
  rounds = 60,
): Promise<void> {
  const { eq } = await import("drizzle-orm");
  const { chainPayouts } = await import("../../src/db/schema/index");
  let jumped = false;
  for (let i = 0; i < rounds; i++) {
    const rows = await app.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, missionId));
    if (rows.length && rows.every((p) => p.state === "confirmed" || p.state === "final")) return;
    if (!jumped && rows.some((p) => p.step === "execute")) {
      await chain.increaseTime(RELEASE_DELAY);
      jumped = true;
    }
    app.clock.advance(15 * POLL_MS);
    await escrowTick(app);
    await chain.mine(1);
  }
  throw new Error(`settleMission: ${missionId} not settled within ${rounds} rounds`);
}
