import { erc20Abi, type Address, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import type { TestApp } from "../helpers/app";
import { authorizationUsed, signReceiveAuthorization } from "../helpers/usdc-sign";
import { createBaseMission, escrowTick, type EscrowChain } from "../helpers/escrow-chain";
import { relayer, useRelayerApp } from "../helpers/relayer-app";

// docs/payments.md: a creator funds its base-rail mission from an EIP-3009
// authorization alone — no approve, no gas of its own — by posting it to
// POST /missions/{id}/escrow/authorization; the server's relayer sends fundWithAuthorization
// (contract v4), the watcher opens the mission, and the same authorization cannot be used twice.

const REWARD = 100_000_000n;
const SPAM_FEE = 5_000_000n;

let chain: EscrowChain;
let t: TestApp;
useRelayerApp(async (s) => {
  ({ chain, t } = s);
  // The mission's times (refund-after, signed-only) are then times on the chain.
  const chainNow = Number((await chain.anvil.publicClient.getBlock()).timestamp) * 1000;
  if (chainNow > t.clock.now().getTime()) t.clock.advance(chainNow - t.clock.now().getTime());
});

const seconds = (iso: string) => BigInt(Math.ceil(Date.parse(iso) / 1000));

/** The creator's signed authorization for its mission, as the route takes it. */
async function authorizationFor(c: Awaited<ReturnType<typeof createBaseMission>>, salt: Hex, validBefore: bigint) {
  const e = c.m.escrow;
  const nonce = await chain.anvil.publicClient.readContract({
    address: e.contract as Address,
    abi: missionEscrowAbi,
    functionName: "fundingAuthorizationNonce",
    args: [
      c.key,
      REWARD,
      SPAM_FEE,
      seconds(e.refund_after),
      e.signed_only_until ? seconds(e.signed_only_until) : 0n,
      salt,
    ],
  });
  const { signature } = await signReceiveAuthorization(c.creator.account, {
    chainId: chain.anvil.chainId,
    token: chain.usdc,
    to: e.contract as Address,
    value: REWARD + SPAM_FEE,
    validBefore,
    nonce,
  });
  return { nonce, body: { valid_after: "0", valid_before: validBefore.toString(), salt, signature } };
}

describe("funding a base-rail mission by authorization, relayed by the server", () => {
  it("a creator with USDC and no ETH funds from an authorization alone; the mission opens; the authorization cannot be used twice", async () => {
    const c = await createBaseMission(t, REWARD);
    const funder = c.creator.account.address;
    await chain.mint(funder, REWARD + SPAM_FEE);
    await chain.setEth(funder, 0n);
    const chainNow = (await chain.anvil.publicClient.getBlock()).timestamp;
    const { nonce, body } = await authorizationFor(c, `0x${"ab".repeat(32)}`, chainNow + 3600n);

    const r = await t.call("POST", `/missions/${c.m.id}/escrow/authorization`, { token: c.creator.token, body });
    expect(r.status, r.text).toBe(202);
    const txHash = r.body.escrow.deposit.tx_hash as Hex;
    const tx = await chain.anvil.publicClient.getTransaction({ hash: txHash });
    expect(tx.from.toLowerCase()).toBe(relayer.address.toLowerCase());
    await chain.mine(2);
    await escrowTick(t);
    expect((await t.call("GET", `/missions/${c.m.id}`, { token: c.creator.token })).body.status).toBe("open");

    // No approve, no gas: the creator's allowance is zero, its ETH untouched at zero, its USDC in the escrow.
    expect(await chain.ethBalance(funder)).toBe(0n);
    expect(await chain.usdcBalance(funder)).toBe(0n);
    const allowance = await chain.anvil.publicClient.readContract({
      address: chain.usdc,
      abi: erc20Abi,
      functionName: "allowance",
      args: [funder, c.m.escrow.contract as Address],
    });
    expect(allowance).toBe(0n);
    const spent = await authorizationUsed(chain.anvil.publicClient, chain.usdc, funder, nonce);
    expect(spent).toBe(true);

    // The same authorization again: refused before anything is sent (409), nothing moves.
    const relayerNonce = await chain.anvil.publicClient.getTransactionCount({ address: relayer.address });
    const again = await t.call("POST", `/missions/${c.m.id}/escrow/authorization`, { token: c.creator.token, body });
    expect(again.status, again.text).toBe(409);
    expect(again.body.details.reason).toBe("AlreadyFunded");
    expect(await chain.anvil.publicClient.getTransactionCount({ address: relayer.address })).toBe(relayerNonce);
  }, 120_000);

  it("an expired authorization, one signed for other terms, or a stranger's post is refused and costs the relayer nothing", async () => {
    const c = await createBaseMission(t, REWARD);
    await chain.mint(c.creator.account.address, REWARD + SPAM_FEE);
    const chainNow = (await chain.anvil.publicClient.getBlock()).timestamp;
    const relayerNonce = await chain.anvil.publicClient.getTransactionCount({ address: relayer.address });
    const expired = await authorizationFor(c, `0x${"01".repeat(32)}`, chainNow - 1n);
    const r1 = await t.call("POST", `/missions/${c.m.id}/escrow/authorization`, {
      token: c.creator.token,
      body: expired.body,
    });
    expect(r1.status, r1.text).toBe(422);
    expect(r1.body.details.reason).toBe("AuthorizationExpired");
    // A signature over one salt posted with another: the nonce differs, the token refuses it.
    const signed = await authorizationFor(c, `0x${"02".repeat(32)}`, chainNow + 3600n);
    const r2 = await t.call("POST", `/missions/${c.m.id}/escrow/authorization`, {
      token: c.creator.token,
      body: { ...signed.body, salt: `0x${"03".repeat(32)}` },
    });
    expect(r2.status, r2.text).toBe(422);
    expect(r2.body.details.reason).toBe("InvalidAuthorizationSignature");
    const { signIn } = await import("../helpers/agents");
    const stranger = await signIn(t);
    const r3 = await t.call("POST", `/missions/${c.m.id}/escrow/authorization`, {
      token: stranger.token,
      body: signed.body,
    });
    expect([403, 404]).toContain(r3.status);
    expect(await chain.anvil.publicClient.getTransactionCount({ address: relayer.address })).toBe(relayerNonce);
    expect((await t.call("GET", `/missions/${c.m.id}`, { token: c.creator.token })).body.status).toBe("pending_escrow");
  }, 120_000);
});
