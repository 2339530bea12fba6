import postgres from "postgres";
import { parseEventLogs, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client";
import { identityRegistryUpgradeableAbi } from "../../src/lib/abi/erc8004-identity";
import { reputationRegistryUpgradeableAbi } from "../../src/lib/abi/erc8004-reputation";
import { makeTestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { signedAward } from "../helpers/award-sign";
import { onRealPostgres } from "../helpers/db";
import { deployErc8004, lastFeedbackIndex } from "../helpers/erc8004";
import { createBaseMission, escrowTick, startEscrowChain } from "../helpers/escrow-chain";
import {
  freshDatabase,
  killProcess as kill,
  startWorker,
  tempDir,
  untilRow,
  useCleanups,
} from "../helpers/process-suite";

// Must show 4 with real processes (docs/erc-8004.md "Exactly once"): the paid mission is settled
// in this process; `src/worker.ts` (what `npm run worker` runs), holding the reporter key, signs
// and stores the feedback and sends it; it is SIGKILLed before the feedback is mined and the node
// loses the transaction. The restarted worker sends the same stored bytes: one entry on chain.

describe.runIf(onRealPostgres)("ERC-8004 feedback survives SIGKILL of the worker", () => {
  const cleanups = useCleanups();

  it("writes one entry after a kill -9 between the send and the mining", { timeout: 300_000 }, async () => {
    const chain = await startEscrowChain();
    cleanups.push(() => chain.stop());
    const { identity, reputation } = await deployErc8004(chain.anvil);
    const fresh = await freshDatabase(cleanups, "oabp_erc8004_crash");
    const database = await openDatabase({ url: fresh.url });
    const t = await makeTestApp(chain.env(), { database: { database, dispose: () => database.close() } });
    cleanups.push(() => t.close());
    const sql = postgres(fresh.url, { max: 1, onnotice: () => {} });
    cleanups.push(() => sql.end());
    const reporterKey = generatePrivateKey();
    const reporter = privateKeyToAccount(reporterKey);
    await chain.setEth(reporter.address, 10n ** 18n);

    // The winner's own ERC-8004 identity and opt-in, then a paid (final) mission, in this process.
    const winner = await signIn(t);
    await chain.setEth(winner.address, 10n ** 18n);
    const rc = chain.anvil.publicClient;
    const regHash = await chain.wallet(winner.account).writeContract({
      address: identity,
      abi: identityRegistryUpgradeableAbi,
      functionName: "register",
      args: ["https://winner.example/agent-registration.json"],
    });
    const logs = (await rc.waitForTransactionReceipt({ hash: regHash })).logs;
    const agentId = parseEventLogs({ abi: identityRegistryUpgradeableAbi, eventName: "Registered", logs })[0]!.args
      .agentId;
    const optIn = await t.call("PUT", `/agents/${winner.address}`, {
      token: winner.token,
      body: { erc8004_agent_id: agentId.toString() },
    });
    expect(optIn.status, optIn.text).toBe(200);
    const c = await createBaseMission(t, 100_000_000n);
    const fundHash = await chain.fund(c.creator.account, c.key, 100_000_000n, 5_000_000n);
    await t.call("POST", `/missions/${c.m.id}/escrow`, { token: c.creator.token, body: { tx_hash: fundHash } });
    await chain.mine(2);
    await escrowTick(t);
    const sub = await t.call("POST", `/missions/${c.m.id}/submissions`, {
      token: winner.token,
      body: { content: "the answer" },
    });
    expect(sub.status, sub.text).toBe(201);
    const { award } = await signedAward(t, c.creator, c.m.id, { winners: [{ submission_id: sub.body.id }] });
    expect(award.status, award.text).toBe(200);
    const releaseState = async () =>
      (await sql`select state from chain_payouts where mission_id = ${c.m.id}`)[0]?.state as string | undefined;
    for (let i = 0; i < 60 && (await releaseState()) !== "final"; i++) {
      await escrowTick(t);
      await chain.mine(1);
    }
    expect(await releaseState()).toBe("final");

    // The worker process with the reporter key; blocks are mined by hand from here.
    await chain.anvil.testClient.setAutomine(false);
    const workerEnv = {
      ...chain.env(),
      DATABASE_URL: fresh.url,
      OABP_JOB_INTERVAL_MS: "100",
      OABP_CHAIN_POLL_MS: "200",
      OABP_DATA_DIR: tempDir(cleanups, "oabp-erc8004-worker"),
      OABP_ERC8004_IDENTITY_REGISTRY: identity,
      OABP_ERC8004_REPUTATION_REGISTRY: reputation,
      OABP_ERC8004_REPORTER_KEY: reporterKey,
    };
    const rowOf = async () =>
      (await sql`select state, tx_hash, raw_tx, feedback_index from erc8004_feedback where mission_id = ${c.m.id}`)[0];
    const until = untilRow(rowOf, 120_000);
    let worker = await startWorker(workerEnv);
    cleanups.push(() => kill(worker));
    await until("the signed feedback", async () => (await rowOf())?.state === "broadcast");
    const stored = (await rowOf())!;
    await kill(worker);
    // The node loses the feedback (the registration stays and is mined): only the stored bytes can write it.
    await chain.anvil.testClient.dropTransaction({ hash: stored.tx_hash as Hex });
    await chain.mine(2);
    const lastIndex = () => lastFeedbackIndex(chain.anvil, reputation, agentId, reporter.address);
    expect(await lastIndex()).toBe(0n);

    worker = await startWorker(workerEnv);
    await until(
      "the confirmed feedback",
      async () => (await rowOf())?.state === "confirmed",
      () => chain.mine(1),
    );
    const done = (await rowOf())!;
    expect(done.tx_hash).toBe(stored.tx_hash); // the same bytes, not a second signature
    expect(done.raw_tx).toBe(stored.raw_tx);
    expect(done.feedback_index).toBe(1);
    await chain.mine(3);
    await new Promise((res) => setTimeout(res, 1_000));
    expect(await lastIndex()).toBe(1n);
    const entries = await rc.getContractEvents({
      address: reputation,
      abi: reputationRegistryUpgradeableAbi,
      eventName: "NewFeedback",
      fromBlock: 0n,
    });
    expect(entries).toHaveLength(1);
    const [self] = await sql`select state, agent_id::text as agent_id from erc8004_identities`;
    expect(self?.state).toBe("confirmed");
  });
});
