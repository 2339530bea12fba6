import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startLocalServer, stopServer } from "../helpers/cli";
import { startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";
import type { ServerProcess } from "../helpers/process";

// Must-show 1 (chain): `oabp fund` on the base rail against the real server process and anvil —
// the creator's wallet approves and funds the escrow, the command attaches the deposit and waits
// until the server opens the mission at its confirmation depth; then the mission is solved,
// awarded and paid on chain, followed with `oabp watch`.

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;
let chain: EscrowChain;
let proc: ServerProcess;
let dir: string;
let miner: NodeJS.Timeout | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oabp-cli-fund-"));
  chain = await startEscrowChain();
  proc = await startLocalServer({
    ...chain.env(),
    OABP_DATA_DIR: path.join(dir, "data"),
    DATABASE_URL: "",
    OABP_JOB_INTERVAL_MS: "200",
  });
}, 180_000);
afterAll(async () => {
  if (miner) clearInterval(miner);
  await stopServer(proc);
  await chain?.stop();
});

describe("oabp fund (base rail, anvil)", () => {
  it(
    "approve + fund from the wallet, attach, wait until open; then submit, award, paid on chain",
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
          "--reward",
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
      expect((await runCli(["award", id, sub.json.id, "--profile", "creator", "--json"], { env })).code).toBe(0);
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
});
