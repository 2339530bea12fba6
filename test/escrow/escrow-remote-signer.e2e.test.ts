import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainPayouts } from "../../src/db/schema/index";
import { localSigner, remoteSigner } from "../../src/lib/resolver-signer";
import { makeTestApp, type TestApp } from "../helpers/app";
import { awardedBaseMission } from "../helpers/base-rail-mission";
import { escrowTick, startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";

// The resolver signer (docs/base-rail.md "Resolver signer"): the worker holds no key and signs
// through JSON-RPC eth_signTransaction. The remote end here is a real signer process: anvil, which
// answers eth_signTransaction for its unlocked dev accounts (the resolver is dev account 1).

const REWARD = 20_000_000n;

let chain: EscrowChain;
let t: TestApp;
/** The base-rail env with no key: the resolver's address and a signer URL instead. */
const remoteEnv = (url: string) =>
  chain.env({ OABP_RESOLVER_KEY: "", OABP_RESOLVER_SIGNER_URL: url, OABP_RESOLVER_ADDRESS: chain.resolver.address });

beforeAll(async () => {
  chain = await startEscrowChain();
  t = await makeTestApp(remoteEnv(chain.anvil.rpcUrl));
});
afterAll(async () => {
  await t?.close();
  await chain?.stop();
});

describe("remote resolver signer (eth_signTransaction)", () => {
  it("signs the same bytes as the local key", async () => {
    const tx = {
      type: "eip1559" as const,
      chainId: 8453,
      to: chain.escrow,
      data: "0x1234" as const,
      value: 0n,
      nonce: 7,
      gas: 100_000n,
      maxFeePerGas: 3_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    };
    const remote = remoteSigner(chain.anvil.rpcUrl, chain.resolver.address);
    const local = localSigner(chain.resolverKey);
    expect(remote.address).toBe(local.address);
    expect(await remote.signTransaction(tx)).toBe(await local.signTransaction(tx));
  });

  it("a worker with only the signer's URL settles an award; a signer that is down is an outage, not a failure", async () => {
    expect(t.deps.chain!.canSign).toBe(true);
    const c = await awardedBaseMission({ t, chain }, { reward: REWARD, attach: true });

    // First through a signer that does not answer: nothing is signed, the payout waits.
    const down = await makeTestApp(remoteEnv("http://127.0.0.1:9/"), { database: t.db });
    down.clock.set(t.clock.now());
    await escrowTick(down);
    const [p] = await t.deps.database.db.select().from(chainPayouts).where(eq(chainPayouts.missionId, c.m.id));
    expect(p).toMatchObject({ state: "queued", rawTx: null, nonce: null });
    await down.close();

    for (let i = 0; i < 20 && (await t.call("GET", `/missions/${c.m.id}`)).body.payout_status !== "confirmed"; i++) {
      await escrowTick(t);
      await chain.mine(1);
    }
    expect((await t.call("GET", `/missions/${c.m.id}`)).body.payout_status).toBe("confirmed");
    expect(await chain.usdcBalance(c.winner.address)).toBeGreaterThan(0n);
  });
});
