import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { proposalsOf } from "../helpers/base-rail-mission";
import { signTyped, type TypedRelease } from "../helpers/award-sign";
import { RELEASE_DELAY, startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";
import { E2E_PUBLIC_URL, freshPostgresDatabase, startServer, type ServerProcess } from "../helpers/process";

// Kill the real server between broadcast and confirmation of a release: the transaction was
// signed and stored before it was sent; the node then loses it (dropped from the mempool). The
// restarted server must send the same bytes again and complete the payout exactly once. Both
// release paths (docs/base-rail.md "Release paths"): a signed award (releaseSigned), and an
// unsigned one, whose proposal is the transaction lost — and which is killed again between its
// proposal and its execution.
describe.runIf(onRealPostgres)("settlement survives SIGKILL between broadcast and confirmation", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it.each(["signed", "delayed"] as const)(
    "%s: restart re-sends the stored transaction and pays once",
    { timeout: 180_000 },
    async (releasePath) => {
      const REWARD = 100_000_000n;
      const FEE = (REWARD * 50n) / 10_000n;
      const chain: EscrowChain = await startEscrowChain();
      cleanups.push(() => chain.stop());
      const db = await freshPostgresDatabase("oabp_escrow_crash");
      cleanups.push(db.drop);
      const env = {
        ...chain.env(),
        DATABASE_URL: db.url,
        OABP_DATA_DIR: mkdtempSync(path.join(tmpdir(), "oabp-escrow-crash-")),
        OABP_JOB_INTERVAL_MS: "100",
        // A pending proposal is read again every 15 polls (payouts.paths.ts): 3 s here.
        OABP_CHAIN_POLL_MS: "200",
      };
      const kill = async (p: ServerProcess) => {
        if (p.child.exitCode === null) p.child.kill("SIGKILL");
        await p.exited;
      };

      let server = await startServer(env);
      cleanups.push(() => kill(server));
      const call = async (method: string, p: string, body?: unknown, token?: string) => {
        const res = await fetch(server.base + p, {
          method,
          headers: {
            ...(body !== undefined && { "content-type": "application/json" }),
            ...(token && { authorization: `Bearer ${token}` }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
      };
      const signIn = async (account: PrivateKeyAccount) => {
        const { nonce } = (await call("POST", "/auth/nonce")).body;
        const message = createSiweMessage({
          address: account.address,
          chainId: 8453,
          domain: new URL(E2E_PUBLIC_URL).host,
          nonce,
          uri: E2E_PUBLIC_URL,
          version: "1",
        });
        return (await call("POST", "/auth/siwe", { message, signature: await account.signMessage({ message }) })).body
          .token as string;
      };
      /** Polls the mission (mining a block each round, so depth grows) until `done` holds. */
      const until = async (id: string, done: (m: any) => boolean, mine = true) => {
        for (let i = 0; i < 300; i++) {
          const m = (await call("GET", `/missions/${id}`)).body;
          if (m && done(m)) return m;
          if (mine) await chain.mine(1);
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`mission ${id} never reached the expected state`);
      };

      const creator = privateKeyToAccount(generatePrivateKey());
      const creatorToken = await signIn(creator);
      const created = await call(
        "POST",
        "/missions",
        {
          title: "Crash-safe payout",
          description: "Release interrupted by SIGKILL.",
          reward: { asset: "USDC", amount: REWARD.toString(), chain: "base" },
          verification: { type: "creator_judges", params: {} },
          deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        },
        creatorToken,
      );
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      const key = created.body.escrow.mission_key as Hex;
      await chain.fund(creator, key, REWARD, 5_000_000n);
      await until(id, (m) => m.status === "open"); // found by the watcher on its own

      const winner = privateKeyToAccount(generatePrivateKey());
      const sub = await call("POST", `/missions/${id}/submissions`, { content: "the answer" }, await signIn(winner));
      expect(sub.status, sub.text).toBe(201);
      const body = { winners: [{ submission_id: sub.body.id }] };
      let release_signatures: Record<string, string> | undefined;
      if (releasePath === "signed") {
        const typed = await call("POST", `/missions/${id}/award/typed-data`, body, creatorToken);
        const r = (typed.body.releases as TypedRelease[])[0]!;
        release_signatures = { [r.mission_key]: await signTyped(creator, r) };
      }
      await chain.anvil.testClient.setAutomine(false); // the release (or its proposal) will wait in the mempool
      expect((await call("POST", `/missions/${id}/award`, { ...body, release_signatures }, creatorToken)).status).toBe(
        200,
      );
      const broadcast = await until(id, (m) => m.payout_status === "broadcast", false);
      const txHash = broadcast.escrow.payout_tx_hash as Hex;

      await kill(server);
      // The node loses the transaction: only the copy stored in the database is left.
      await chain.anvil.testClient.dropTransaction({ hash: txHash });
      await chain.anvil.testClient.setAutomine(true);
      await chain.mine(3);
      expect(await chain.usdcBalance(winner.address)).toBe(0n);

      server = await startServer(env);
      if (releasePath === "delayed") {
        // The same proposal bytes reach the chain; once confirmed the payout waits for its window.
        await until(id, (m) => String(m.payout_status_reason).startsWith("release_proposed:"));
        const proposals = await proposalsOf(chain, key);
        expect(proposals.map((l) => l.transactionHash)).toEqual([txHash]);
        // Killed again between proposal and execution; the window passes while it is down.
        await kill(server);
        await chain.increaseTime(RELEASE_DELAY);
        expect(await chain.usdcBalance(winner.address)).toBe(0n);
        server = await startServer(env);
      }
      const done = await until(id, (m) => m.payout_status === "confirmed");
      // The same signed bytes, not a new transaction (delayed: the proposal was not sent twice).
      if (releasePath === "signed") expect(done.escrow.payout_tx_hash).toBe(txHash);
      else expect(await proposalsOf(chain, key)).toHaveLength(1);
      expect(await chain.usdcBalance(winner.address.toLowerCase())).toBe(REWARD - FEE);
      expect(await chain.releasedLogs(key)).toBe(1);
      await until(id, (m) => m.phase === "settled");
      expect(await chain.releasedLogs(key)).toBe(1);
    },
  );
});
