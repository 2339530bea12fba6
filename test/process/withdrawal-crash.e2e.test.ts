import postgres from "postgres";
import { parseAbi, parseEventLogs, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";
import { E2E_ADMIN, httpCall, httpSignIn, type ServerProcess } from "../helpers/process";
import {
  freshDatabase,
  httpCredit,
  killProcess as kill,
  startWorker,
  tempDir,
  untilRow,
  useCleanups,
} from "../helpers/process-suite";
import { runCli, startLocalServer } from "../helpers/cli";

// Withdrawals (docs/withdrawals.md "Exactly once") with the real processes: the public API without
// the resolver key and `src/worker.ts` (what `npm run worker` runs) holding it. The worker signs
// the transfer and stores it; it is SIGKILLed before the transfer is mined, and the node loses the
// transaction. The restarted worker sends the same stored bytes: the solver is paid exactly once.
// A withdrawal over the agent's cap waits for the operator's approval, then pays.

const USDC = 1_000_000n;
const transferAbi = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]);

describe.runIf(onRealPostgres)("a withdrawal survives SIGKILL of the worker", () => {
  const cleanups = useCleanups();

  it(
    "pays exactly once after a kill -9 mid-way; over the cap it waits for the operator",
    { timeout: 240_000 },
    async () => {
      const chain: EscrowChain = await startEscrowChain();
      cleanups.push(() => chain.stop());
      const db = await freshDatabase(cleanups, "oabp_withdrawal_crash");
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      cleanups.push(() => sql.end());
      const common = {
        ...chain.env(),
        DATABASE_URL: db.url,
        OABP_JOB_INTERVAL_MS: "100",
        OABP_CHAIN_POLL_MS: "200",
        OABP_WITHDRAWAL_AGENT_CAP: "50",
      };
      const { OABP_RESOLVER_KEY: _key, ...withoutKey }: Record<string, string> = common;
      const api: ServerProcess = await startLocalServer({
        ...withoutKey,
        OABP_RESOLVER_ADDRESS: chain.resolver.address,
        OABP_DATA_DIR: tempDir(cleanups, "oabp-wd-api"),
      });
      cleanups.push(() => kill(api));
      const workerEnv = { ...common, OABP_DATA_DIR: tempDir(cleanups, "oabp-wd-worker") };

      await chain.mint(chain.resolver.address, 1_000n * USDC);
      const key = generatePrivateKey();
      const solver = await httpSignIn(api.base, { account: privateKeyToAccount(key), publicUrl: api.base });
      await httpCredit(api.base, solver.address, 200n * USDC);

      // Blocks are mined by hand from here: the signed transfer sits in the mempool.
      await chain.anvil.testClient.setAutomine(false);
      // The solver withdraws with the CLI, in whole units: `oabp withdraw 25`.
      const cliEnv = {
        OABP_URL: api.base,
        OABP_CONFIG_DIR: tempDir(cleanups, "oabp-wd-cli"),
        OABP_PRIVATE_KEY: key,
      };
      const login = await runCli(["login", "--json"], { env: cliEnv });
      expect(login.code, login.stderr).toBe(0);
      const r = await runCli(["withdraw", "25", "--json"], { env: cliEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ state: "queued", amount: "25000000", to: solver.address });
      const id = r.json.id as string;

      let worker = await startWorker(workerEnv);
      cleanups.push(() => kill(worker));
      const rowOf = async () => (await sql`select state, tx_hash, raw_tx from withdrawals where id = ${id}`)[0]!;
      const until = untilRow(rowOf, 90_000);
      await until("the signed transfer", async () => (await rowOf()).state === "broadcast");
      const stored = (await rowOf()).tx_hash as Hex;
      await kill(worker);
      // The node loses the transaction: only the stored bytes can pay now.
      await chain.anvil.testClient.dropTransaction({ hash: stored });
      await chain.mine(2);
      expect(await chain.usdcBalance(solver.address)).toBe(0n);
      expect((await rowOf()).state).toBe("broadcast");

      worker = await startWorker(workerEnv);
      await until(
        "confirmation",
        async () => (await rowOf()).state === "confirmed",
        () => chain.mine(1),
      );
      expect((await rowOf()).tx_hash).toBe(stored); // the same bytes, not a second signature
      expect(await chain.usdcBalance(solver.address)).toBe(25n * USDC);

      // Over the agent's cap (50 a day): waits, with the worker running, until the operator approves.
      const big = await httpCall(
        api.base,
        "POST",
        "/agents/me/withdrawals",
        { amount: (40n * USDC).toString() },
        solver.token,
      );
      expect(big.body).toMatchObject({ state: "awaiting_approval", reason: "over_agent_cap" });
      await chain.mine(5);
      await new Promise((res) => setTimeout(res, 1_500));
      expect(await chain.usdcBalance(solver.address)).toBe(25n * USDC);
      const approved = await httpCall(api.base, "POST", `/admin/withdrawals/${big.body.id}/approve`, {}, E2E_ADMIN);
      expect(approved.body.state).toBe("queued");
      const bigState = async () => (await sql`select state from withdrawals where id = ${big.body.id}`)[0]!.state;
      await until(
        "the approved withdrawal",
        async () => (await bigState()) === "confirmed",
        () => chain.mine(1),
      );

      // Exactly once on chain: two transfers from the resolver to the solver, 25 and 40.
      const logs = await chain.anvil.publicClient.getLogs({ address: chain.usdc, fromBlock: 0n, toBlock: "latest" });
      const paid = parseEventLogs({ abi: transferAbi, logs })
        .filter((l) => l.args.to.toLowerCase() === solver.address)
        .map((l) => l.args.value);
      expect(paid).toEqual([25n * USDC, 40n * USDC]);
      expect(await chain.usdcBalance(solver.address)).toBe(65n * USDC);
      const listed = await httpCall(api.base, "GET", "/agents/me/withdrawals", undefined, solver.token);
      expect(listed.body.withdrawals.map((w: { state: string }) => w.state)).toEqual(["confirmed", "confirmed"]);
      expect(listed.body.withdrawals[1].receipt.signature.alg).toBe("ed25519");
      const verify = await httpCall(api.base, "GET", "/admin/ledger/verify", undefined, E2E_ADMIN);
      expect(verify.body.ok).toBe(true);
      const balances =
        await sql`select account, balance::text from ledger_accounts where account in (${"agent:" + solver.address}, 'withdrawals')`;
      expect(Object.fromEntries(balances.map((b) => [b.account, b.balance]))).toEqual({
        [`agent:${solver.address}`]: (135n * USDC).toString(),
        withdrawals: "0",
      });
      const tr = await httpCall(api.base, "GET", "/transparency");
      expect(tr.body.withdrawals).toContainEqual({ asset: "USDC", state: "confirmed", count: 2, total: "65000000" });
    },
  );
});
