import { eq } from "drizzle-orm";
import { createPublicClient, http, parseAbi, parseEventLogs, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainPayouts, erc8004Feedback, erc8004Identities } from "../../src/db/schema/index";
import { runErc8004 } from "../../src/features/erc8004";
import { identityRegistryUpgradeableAbi } from "../../src/lib/abi/erc8004-identity";
import { makeTestApp, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { signedAward } from "../helpers/award-sign";
import { createBaseMission, escrowTick, startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";
import { deployErc8004, lastFeedbackIndex } from "../helpers/erc8004";
import { acceptedSubmission } from "../helpers/mission-flow";

// Must show 4 (docs/erc-8004.md): on anvil with the ERC-8004 reference registries deployed as
// upstream deploys them (an ERC1967Proxy on a placeholder UUPS implementation, upgraded to the
// registry with its initializer), a paid base-rail mission whose winner opted in produces exactly
// one feedback entry carrying the receipt's hash and the release transaction. The node loses the
// signed feedback after the worker stored and sent it (what a crash between the commit and the
// send leaves); the next pass — a restart — sends the same stored bytes, never a second entry. A
// third party finds the entry with plain viem reads of the registry.

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;

let chain: EscrowChain;
let t: TestApp;
let identity: Address;
let reputation: Address;
const reporterKey = generatePrivateKey();
const reporter = privateKeyToAccount(reporterKey);

beforeAll(async () => {
  chain = await startEscrowChain();
  ({ identity, reputation } = await deployErc8004(chain.anvil));
  await chain.setEth(reporter.address, 10n ** 18n);
  t = await makeTestApp(
    chain.env({
      OABP_ERC8004_IDENTITY_REGISTRY: identity,
      OABP_ERC8004_REPUTATION_REGISTRY: reputation,
      OABP_ERC8004_REPORTER_KEY: reporterKey,
    }),
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

/** One worker round: the clock moves a minute (past any backoff), the pass runs, a block is mined. */
async function pass(mine = true) {
  t.clock.advance(60_000);
  await runErc8004(t.deps);
  if (mine) await chain.mine(1);
}
async function until(what: string, ok: () => Promise<boolean>, round: () => Promise<void>) {
  for (let i = 0; i < 60; i++) {
    if (await ok()) return;
    await round();
  }
  throw new Error(`not reached: ${what}`);
}

describe("ERC-8004 feedback backed by payment (reference registries on anvil)", () => {
  it(
    "registers the server once, writes one entry per paid mission across a lost send, readable by anyone",
    { timeout: 300_000 },
    async () => {
      const db = t.deps.database.db;
      // The server registers itself from the reporter key; the registration file lists it.
      await until(
        "the server's registration",
        async () => (await db.select().from(erc8004Identities))[0]?.state === "confirmed",
        () => pass(),
      );
      const [self] = await db.select().from(erc8004Identities);
      expect(self!.agentUri).toBe(`${t.deps.config.publicUrl}/.well-known/agent-registration.json`);
      const serverAgentId = BigInt(self!.agentId!);
      const rc = chain.anvil.publicClient;
      expect(
        (
          await rc.readContract({
            address: identity,
            abi: identityRegistryUpgradeableAbi,
            functionName: "ownerOf",
            args: [serverAgentId],
          })
        ).toLowerCase(),
      ).toBe(reporter.address.toLowerCase());
      const file = await t.call("GET", "/.well-known/agent-registration.json");
      expect(file.body.registrations).toEqual([
        { agentId: Number(serverAgentId), agentRegistry: `eip155:8453:${identity.toLowerCase()}` },
      ]);
      expect(file.body.supportedTrust).toEqual(["reputation"]);
      // More passes register nothing again: one Registered event from the reporter.
      await pass();
      await pass();
      const registered = await rc.getContractEvents({
        address: identity,
        abi: identityRegistryUpgradeableAbi,
        eventName: "Registered",
        fromBlock: 0n,
      });
      expect(registered.filter((e) => e.args.owner?.toLowerCase() === reporter.address.toLowerCase())).toHaveLength(1);

      // The winner registers in the identity registry from its own wallet and opts in over REST.
      const winner = await signIn(t);
      await chain.setEth(winner.address, 10n ** 18n);
      const w = chain.wallet(winner.account);
      const regHash = await w.writeContract({
        address: identity,
        abi: identityRegistryUpgradeableAbi,
        functionName: "register",
        args: ["https://winner.example/agent-registration.json"],
      });
      const regReceipt = await rc.waitForTransactionReceipt({ hash: regHash });
      const [reg] = parseEventLogs({
        abi: identityRegistryUpgradeableAbi,
        eventName: "Registered",
        logs: regReceipt.logs,
      });
      const winnerAgentId = reg!.args.agentId;
      const optIn = await t.call("PUT", `/agents/${winner.address}`, {
        token: winner.token,
        body: { erc8004_agent_id: winnerAgentId.toString() },
      });
      expect(optIn.status, optIn.text).toBe(200);
      expect(optIn.body.erc8004).toEqual({ agent_id: winnerAgentId.toString(), feedback: [] });

      // A paid base-rail mission: funded, awarded with the creator's signature, released, final.
      const c = await createBaseMission(t, REWARD);
      const fundHash = await chain.fund(c.creator.account, c.key, REWARD, SPAM_FEE);
      expect(
        (await t.call("POST", `/missions/${c.m.id}/escrow`, { token: c.creator.token, body: { tx_hash: fundHash } }))
          .status,
      ).toBe(202);
      await chain.mine(2);
      await escrowTick(t);
      const sub = await acceptedSubmission(t, c.m.id, winner, "the answer");
      const { award } = await signedAward(t, c.creator, c.m.id, { winners: [{ submission_id: sub.body.id }] });
      expect(award.status, award.text).toBe(200);
      const release = async () => (await db.select().from(chainPayouts).where(eq(chainPayouts.missionId, c.m.id)))[0];
      await until(
        "the final release",
        async () => (await release())?.state === "final",
        async () => {
          await escrowTick(t);
          await chain.mine(1);
        },
      );
      const releaseTx = ((await release())!.minedTxHash ?? (await release())!.txHash)!;

      // The worker signs and stores the feedback, then sends it; the node loses it (blocks by hand).
      await chain.anvil.testClient.setAutomine(false);
      const row = async () => (await db.select().from(erc8004Feedback).where(eq(erc8004Feedback.missionId, c.m.id)))[0];
      await until(
        "the stored feedback",
        async () => (await row())?.state === "broadcast",
        () => pass(false),
      );
      const stored = (await row())!;
      expect(stored).toMatchObject({ agentId: winner.address, erc8004AgentId: winnerAgentId.toString(), releaseTx });
      await chain.anvil.testClient.dropTransaction({ hash: stored.txHash as Hex });
      await chain.mine(2);
      const lastIndex = () => lastFeedbackIndex(chain.anvil, reputation, winnerAgentId, reporter.address);
      expect(await lastIndex()).toBe(0n);
      // The restart's passes re-send the stored bytes: the same transaction, confirmed once.
      await until(
        "the confirmed feedback",
        async () => (await row())?.state === "confirmed",
        () => pass(),
      );
      const done = (await row())!;
      expect(done.txHash).toBe(stored.txHash);
      expect(done.rawTx).toBe(stored.rawTx);
      expect(done.feedbackIndex).toBe(1);
      for (let i = 0; i < 3; i++) await pass();
      expect(await lastIndex()).toBe(1n);

      // A third party, with plain viem and nothing from this server, finds the entry and its proof.
      const reader = createPublicClient({ transport: http(chain.anvil.rpcUrl) });
      const [clients, indexes, values, decimals, tag1s, tag2s, revoked] = await reader.readContract({
        address: reputation,
        abi: parseAbi([
          "function readAllFeedback(uint256 agentId, address[] clientAddresses, string tag1, string tag2, bool includeRevoked) view returns (address[], uint64[], int128[], uint8[], string[], string[], bool[])",
        ]),
        functionName: "readAllFeedback",
        args: [winnerAgentId, [reporter.address], "", "", false],
      });
      expect({ clients, indexes, values, decimals, tag1s, tag2s, revoked }).toEqual({
        clients: [reporter.address],
        indexes: [1n],
        values: [1n],
        decimals: [0],
        tag1s: ["oabpPaidMission"],
        tag2s: [releaseTx],
        revoked: [false],
      });
      const events = await reader.getContractEvents({
        address: reputation,
        abi: parseAbi([
          "event NewFeedback(uint256 indexed agentId, address indexed clientAddress, uint64 feedbackIndex, int128 value, uint8 valueDecimals, string indexed indexedTag1, string tag1, string tag2, string endpoint, string feedbackURI, bytes32 feedbackHash)",
        ]),
        eventName: "NewFeedback",
        fromBlock: 0n,
      });
      expect(events).toHaveLength(1);
      const receiptPath = `/missions/${c.m.id}/receipts/${sub.body.id}`;
      const receipt = await t.call("GET", receiptPath);
      expect(receipt.status).toBe(200);
      expect(events[0]!.args).toMatchObject({
        agentId: winnerAgentId,
        feedbackIndex: 1n,
        tag2: releaseTx,
        feedbackURI: `${t.deps.config.publicUrl}${receiptPath}`,
        feedbackHash: `0x${(receipt.body.digest as string).slice("sha256:".length)}`,
      });
      expect(receipt.body.settlement.tx_hash).toBe(releaseTx);

      // The agent's page and API link the entry.
      const page = await t.call("GET", `/u/${winner.address}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(stored.txHash);
      expect(page.text).toContain(`${t.deps.config.publicUrl}${receiptPath}`);
      const agent = await t.call("GET", `/agents/${winner.address}`);
      expect(agent.body.erc8004.feedback).toEqual([
        {
          mission_id: c.m.id,
          state: "confirmed",
          agent_registry: `eip155:8453:${reputation.toLowerCase()}`,
          feedback_index: 1,
          tx_hash: stored.txHash,
          release_tx: releaseTx,
          feedback_uri: `${t.deps.config.publicUrl}${receiptPath}`,
          feedback_hash: events[0]!.args.feedbackHash,
        },
      ]);
    },
  );
});
