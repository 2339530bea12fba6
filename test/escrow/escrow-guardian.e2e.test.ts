import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { chainPayouts } from "../../src/db/schema/index";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { signIn } from "../helpers/agents";
import { baseMissionWithSubmission, REWARD } from "../helpers/base-rail-mission";
import { escrowTick, useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";
import type { TestApp } from "../helpers/app";
import { BUILT_ENTRY, ROOT } from "../helpers/process";

// The guardian watch (`npm run guardian`, docs/runbooks.md "Guardian watch") as its own process,
// with no database: it reads ReleaseProposed from anvil and the server's public signed decisions
// over HTTP, and exits 2 naming every pending proposal that no verified decision explains — here
// a stolen resolver key's — while the server's own proposal passes.

let chain: EscrowChain;
let t: TestApp;
useEscrowApp((c, a) => ([chain, t] = [c, a]));
let server: ReturnType<typeof serve> | undefined;
afterAll(() => server?.close());

async function listen(): Promise<string> {
  server = await new Promise<ReturnType<typeof serve>>((ok) => {
    const s = serve({ fetch: t.app.fetch, hostname: "127.0.0.1", port: 0 }, () => ok(s));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function guardian(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, BUILT_ENTRY("guardian"), {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", GUARDIAN_ONCE: "1", GUARDIAN_FROM_BLOCK: "0", ...env },
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.on("exit", (code) => done({ code, stderr, stdout }));
  });
}

const fundedMission = () => baseMissionWithSubmission({ t, chain }, { attach: true });

describe("guardian watch (separate process, no database)", () => {
  it("passes the server's own proposal and flags a stolen key's, with the pinned receipt key", async () => {
    const url = await listen();
    const keys = t.deps.receiptKeys.published.map((k) => `${k.key_id}:${k.public_key}`).join(",");
    const env = {
      GUARDIAN_RPC_URL: chain.anvil.rpcUrl,
      GUARDIAN_ESCROWS: chain.escrow,
      GUARDIAN_SERVER_URL: url,
      GUARDIAN_RECEIPT_KEYS: keys,
    };
    // The server decides and proposes (the delayed path).
    const ours = await fundedMission();
    const award = await t.call("POST", `/missions/${ours.m.id}/award`, {
      token: ours.creator.token,
      body: { winners: [{ submission_id: ours.subId }] },
    });
    expect(award.status, award.text).toBe(200);
    for (let i = 0; i < 10; i++) {
      const [p] = await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, ours.m.id));
      if (p?.step === "execute") break;
      await escrowTick(t);
      await chain.mine(1);
    }
    const clean = await guardian(env);
    expect(clean.code, clean.stderr).toBe(0);

    // A stolen resolver key proposes another mission's slot to itself.
    const theirs = await fundedMission();
    const thief = await signIn(t);
    const tx = await chain.wallet(chain.resolver).writeContract({
      address: chain.escrow,
      abi: missionEscrowAbi,
      functionName: "proposeRelease",
      args: [theirs.key, theirs.creator.address as Hex, [thief.address as Hex], [REWARD], 0n],
      chain: chain.anvil.chain,
      account: chain.resolver,
    });
    await chain.anvil.publicClient.waitForTransactionReceipt({ hash: tx });
    const flagged = await guardian(env);
    expect(flagged.code).toBe(2);
    const alarms = flagged.stderr
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.reason === "unexplained_proposal");
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      tx_hash: tx.toLowerCase(),
      mission_key: theirs.key.toLowerCase(),
      recipients: [thief.address.toLowerCase()],
    });

    // A pinned key that is not the server's explains nothing: the server's own proposal is flagged too.
    const wrong = await guardian({
      ...env,
      GUARDIAN_RECEIPT_KEYS: `${t.deps.receiptKeys.published[0]!.key_id}:${"A".repeat(43)}`,
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(ours.key.toLowerCase());

    // The server unreachable: an alarm of its own, never silence.
    const down = await guardian({ ...env, GUARDIAN_SERVER_URL: "http://127.0.0.1:9" });
    expect(down.code).toBe(3);
  }, 180_000);
});
