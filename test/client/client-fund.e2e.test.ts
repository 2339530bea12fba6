import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { decodeFunctionData, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escrowFundAbi } from "../../packages/client/src/escrow-fund";
import { runCli, startLocalServer, stopServer } from "../helpers/cli";
import { startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";
import { E2E_ADMIN, freshPostgresDatabase, httpCall, type ServerProcess } from "../helpers/process";

// On the chain: `oabp fund` on the base rail against the real server process and anvil —
// the creator's wallet funds the escrow with fundUntil and the mission's escrow.refund_after (by
// EIP-2612 permit by default, `--approve` for approve + fundUntil; docs/base-rail.md "Funding from the tools"),
// the command attaches the deposit and waits until the server opens the mission at its
// confirmation depth; then the mission is solved, awarded with the creator's release signature
// (`oabp award` signs it: the signed path, no challenge window) and paid on chain, followed with
// `oabp watch`. The server runs on the embedded database, or on a fresh one of DATABASE_URL.

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;
let chain: EscrowChain;
let proc: ServerProcess;
let dir: string;
let miner: NodeJS.Timeout | undefined;
let pg: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oabp-cli-fund-"));
  chain = await startEscrowChain();
  if (process.env.DATABASE_URL) pg = await freshPostgresDatabase("oabp_cli_fund");
  proc = await startLocalServer({
    ...chain.env(),
    OABP_DATA_DIR: path.join(dir, "data"),
    DATABASE_URL: pg?.url ?? "",
    OABP_JOB_INTERVAL_MS: "200",
  });
}, 180_000);
afterAll(async () => {
  if (miner) clearInterval(miner);
  await stopServer(proc);
  await chain?.stop();
  await pg?.drop();
});

/** The deposit's refund-after on chain and the escrow call its transaction made. */
async function depositOf(m: { escrow: { mission_key: string; deposit: { tx_hash: string } } }, funder: Hex) {
  const pc = chain.anvil.publicClient;
  const refundAfter = await pc.readContract({
    address: chain.escrow,
    abi: escrowFundAbi,
    functionName: "refundAfterOf",
    args: [m.escrow.mission_key as Hex, funder],
  });
  const tx = await pc.getTransaction({ hash: m.escrow.deposit.tx_hash as Hex });
  return { refundAfter, call: decodeFunctionData({ abi: escrowFundAbi, data: tx.input }).functionName };
}

describe("oabp fund (base rail, anvil)", () => {
  it(
    "permit + fundUntil(refund_after) from the wallet, attach, wait until open; then submit, a signed award, paid on chain",
    { timeout: 300_000 },
    async () => {
      const env = { OABP_URL: proc.base, OABP_CONFIG_DIR: path.join(dir, "config") };
      const creatorKey = generatePrivateKey();
      const creator = privateKeyToAccount(creatorKey).address;
      const solverKey = generatePrivateKey();
      const solver = privateKeyToAccount(solverKey).address;
      writeFileSync(path.join(dir, "creator.key"), creatorKey);
      await chain.setEth(creator, 10n ** 18n);
      await chain.mint(creator, REWARD + SPAM_FEE);
      const treasury0 = await chain.usdcBalance(chain.treasury);

      expect(
        (await runCli(["login", "--profile", "creator", "--key-file", path.join(dir, "creator.key")], { env })).code,
      ).toBe(0);
      const created = await runCli(
        [
          "missions",
          "create",
          "--profile",
          "creator",
          "--title",
          "Funded on Base",
          "--description",
          "Escrowed in MissionEscrow",
          "--reward-base-units",
          REWARD.toString(),
          "--chain",
          "base",
          "--deadline",
          "+2d",
          "--json",
        ],
        { env },
      );
      expect(created.code, created.stderr).toBe(0);
      expect(created.json).toMatchObject({
        status: "pending_escrow",
        escrow: { amount: REWARD.toString(), spam_fee: SPAM_FEE.toString() },
      });
      const id = created.json.id as string;

      // Blocks keep coming while the command waits (anvil mines only on demand), as on a live chain.
      miner = setInterval(() => void chain.mine(1).catch(() => undefined), 250);
      const funded = await runCli(
        ["fund", id, "--profile", "creator", "--rpc-url", chain.anvil.rpcUrl, "--interval", "0.2", "--json"],
        { env, timeoutMs: 180_000 },
      );
      expect(funded.code, funded.stderr).toBe(0);
      expect(funded.json).toMatchObject({ id, status: "open", escrow: { deposit: { funder: creator.toLowerCase() } } });
      // fundUntil with the mission's refund_after, to the second (fund() would give 365 days).
      expect(await depositOf(funded.json, creator)).toEqual({
        refundAfter: BigInt(Date.parse(funded.json.escrow.refund_after) / 1000),
        call: "fundUntilWithPermit",
      });
      expect(await chain.anvil.publicClient.getTransactionCount({ address: creator })).toBe(1); // no approve
      expect(await chain.usdcBalance(creator)).toBe(0n);
      expect(await chain.usdcBalance(chain.treasury)).toBe(treasury0 + SPAM_FEE);
      expect(await chain.usdcBalance(chain.escrow)).toBeGreaterThanOrEqual(REWARD);
      // Funding twice is refused by the command itself: the mission is no longer pending_escrow.
      const again = await runCli(["fund", id, "--profile", "creator", "--rpc-url", chain.anvil.rpcUrl, "--json"], {
        env,
      });
      expect(again.code).toBe(0);
      expect(await chain.usdcBalance(chain.treasury)).toBe(treasury0 + SPAM_FEE);

      const sub = await runCli(["submit", id, "-", "--json"], {
        env: { ...env, OABP_PRIVATE_KEY: solverKey },
        input: "deliverable",
      });
      expect(sub.code, sub.stderr).toBe(0);
      const awarded = await runCli(["award", id, sub.json.id, "--profile", "creator", "--json"], { env });
      expect(awarded.code, awarded.stderr).toBe(0);
      // The award carried the creator's release signature: the payout takes the signed path.
      const payouts = await httpCall(proc.base, "GET", "/admin/payouts?limit=100", undefined, E2E_ADMIN);
      expect(payouts.body.payouts.find((p: { mission_id: string }) => p.mission_id === id)).toMatchObject({
        kind: "release",
        release_path: "signed",
      });
      const watched = await runCli(["watch", id, "--interval", "0.2", "--max-polls", "600", "--json"], {
        env,
        timeoutMs: 180_000,
      });
      expect(watched.code, watched.stderr).toBe(0);
      expect(JSON.parse(watched.stdout.trim().split("\n").at(-1)!)).toMatchObject({
        status: "resolved",
        payout_status: "confirmed",
      });
      const fee = (REWARD * 50n) / 10_000n;
      expect(await chain.usdcBalance(solver)).toBe(REWARD - fee);
    },
  );

  it("--approve: approve + fundUntil with the mission's refund_after", { timeout: 300_000 }, async () => {
    const env = { OABP_URL: proc.base, OABP_CONFIG_DIR: path.join(dir, "config") };
    const key = generatePrivateKey();
    const funder = privateKeyToAccount(key).address;
    await chain.setEth(funder, 10n ** 18n);
    await chain.mint(funder, REWARD + SPAM_FEE);
    const flags = ["--json"];
    const created = await runCli(
      [
        "missions",
        "create",
        "--title",
        "Approved",
        "--description",
        "Funded with approve",
        "--reward-base-units",
        REWARD.toString(),
        "--chain",
        "base",
        ...flags,
      ],
      { env: { ...env, OABP_PRIVATE_KEY: key } },
    );
    expect(created.code, created.stdout).toBe(0);
    miner ??= setInterval(() => void chain.mine(1).catch(() => undefined), 250);
    const funded = await runCli(
      ["fund", created.json.id, "--approve", "--rpc-url", chain.anvil.rpcUrl, "--interval", "0.2", ...flags],
      { env: { ...env, OABP_PRIVATE_KEY: key }, timeoutMs: 180_000 },
    );
    expect(funded.code, funded.stderr).toBe(0);
    expect(funded.json).toMatchObject({ status: "open" });
    expect(await depositOf(funded.json, funder)).toEqual({
      refundAfter: BigInt(Date.parse(funded.json.escrow.refund_after) / 1000),
      call: "fundUntil",
    });
    expect(await chain.anvil.publicClient.getTransactionCount({ address: funder })).toBe(2); // approve + fundUntil
    const both = await runCli(["fund", created.json.id, "--approve", "--permit", "--rpc-url", "http://x"], {
      env: { ...env, OABP_PRIVATE_KEY: key },
    });
    expect(both.code).toBe(2); // usage
  });
});
