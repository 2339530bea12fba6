import { createPublicKey, verify } from "node:crypto";
import { parseAbi, parseEventLogs, type Address } from "viem";
import { describe, expect, it } from "vitest";
import { signingBytes } from "../../src/lib/canonical-json";
import { runWithdrawals } from "../../src/features/withdrawals";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app";
import { credit, signIn } from "../helpers/agents";
import { useEscrowApp, type EscrowChain } from "../helpers/escrow-chain";
import { callTool, openSession } from "../helpers/mcp";

// Withdrawals (docs/withdrawals.md) on anvil, the worker's pass called in-process: a withdrawal
// debits the ledger at once and is paid by an ERC-20 transfer from the resolver key, once; a cap
// parks it for the operator; a transfer the chain refuses for a day fails and returns the money
// once; a rejection returns it too; the ledger verifies throughout.

const USDC = 1_000_000n;
let chain: EscrowChain;
let t: TestApp;
useEscrowApp(
  (c, app) => {
    chain = c;
    t = app;
  },
  { env: { OABP_WITHDRAWAL_AGENT_CAP: "50", OABP_WITHDRAWAL_DAILY_CAP: "1000" } },
);

const transferAbi = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]);

/** Worker passes (each a poll later, blocks mined between) until `id` leaves the paying states. */
async function settle(id: string, token: string, rounds = 12) {
  for (let i = 0; i < rounds; i++) {
    t.clock.advance(20_000);
    await runWithdrawals(t.deps);
    await chain.mine(3);
    const w = await mine(token, id);
    if (!["queued", "broadcast"].includes(w.state)) return w;
  }
  return mine(token, id);
}
async function mine(token: string, id: string) {
  const r = await t.call("GET", "/agents/me/withdrawals", { token });
  return r.body.withdrawals.find((w: { id: string }) => w.id === id);
}
const verified = async () => (await t.call("GET", "/admin/ledger/verify", { token: ADMIN_TOKEN })).body.ok;
const withdraw = (token: string, amount: bigint, key?: string) =>
  t.call("POST", "/agents/me/withdrawals", {
    token,
    body: { asset: "USDC", amount: amount.toString() },
    headers: key ? { "idempotency-key": key } : {},
  });

async function transfersTo(to: string): Promise<bigint[]> {
  const logs = await chain.anvil.publicClient.getLogs({ address: chain.usdc, fromBlock: 0n, toBlock: "latest" });
  return parseEventLogs({ abi: transferAbi, logs })
    .filter((l) => l.args.to.toLowerCase() === to && l.args.from.toLowerCase() === chain.resolver.address.toLowerCase())
    .map((l) => l.args.value);
}

describe("withdrawals to a wallet on the base rail", () => {
  it("debits at once, pays once by an ERC-20 transfer from the resolver key, with a signed receipt", async () => {
    await chain.mint(chain.resolver.address, 1_000n * USDC);
    const solver = await signIn(t);
    await credit(t, solver.address, 30n * USDC);
    const r = await withdraw(solver.token, 25n * USDC, "wd-once-1");
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ state: "queued", to: solver.address, amount: "25000000" });
    // A retry of the same request is the same withdrawal: debited once.
    const again = await withdraw(solver.token, 25n * USDC, "wd-once-1");
    expect(again.body.id).toBe(r.body.id);
    const w = await settle(r.body.id, solver.token);
    expect(w.state, JSON.stringify(w)).toBe("confirmed");
    expect(w.receipt).toMatchObject({ type: "oabp.withdrawal", withdrawal_id: w.id, tx_hash: w.tx_hash });
    expect(w.receipt.signature.alg).toBe("ed25519");
    // The receipt verifies offline with the manifest's published receipt key.
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    const pub = manifest.receipt_signing_keys.find((k: { key_id: string }) => k.key_id === w.receipt.signature.key_id);
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: pub.public_key }, format: "jwk" });
    const sig = Buffer.from(w.receipt.signature.value, "base64url");
    expect(verify(null, signingBytes(w.receipt), key, sig)).toBe(true);
    expect(verify(null, signingBytes({ ...w.receipt, amount: "1" }), key, sig)).toBe(false);
    expect(await transfersTo(solver.address)).toEqual([25n * USDC]);
    expect(await chain.usdcBalance(solver.address)).toBe(25n * USDC);
    // More passes change nothing.
    for (let i = 0; i < 3; i++) await runWithdrawals(t.deps);
    expect(await transfersTo(solver.address)).toHaveLength(1);
    expect(await verified()).toBe(true);
    const tr = await t.call("GET", "/transparency");
    expect(tr.body.withdrawals).toContainEqual({ asset: "USDC", state: "confirmed", count: 1, total: "25000000" });
  });

  it("over the agent's cap waits for the operator; approval pays it, a rejection returns it", async () => {
    const solver = await signIn(t);
    await credit(t, solver.address, 200n * USDC);
    const big = await withdraw(solver.token, 60n * USDC);
    expect(big.body).toMatchObject({ state: "awaiting_approval", reason: "over_agent_cap" });
    for (let i = 0; i < 3; i++) {
      t.clock.advance(20_000);
      await runWithdrawals(t.deps);
    }
    expect((await mine(solver.token, big.body.id)).state).toBe("awaiting_approval");
    expect(await transfersTo(solver.address)).toEqual([]);
    const refused = await t.call("POST", `/agents/me/withdrawals`, { token: solver.token, body: { amount: "0" } });
    expect(refused.status).toBe(400);
    const unknown = await t.call("POST", `/agents/me/withdrawals`, {
      token: solver.token,
      body: { amount: "1", to: "0x0000000000000000000000000000000000000001" },
    });
    expect(unknown.status).toBe(400); // no destination field: always the caller's own address
    const ok = await t.call("POST", `/admin/withdrawals/${big.body.id}/approve`, { token: ADMIN_TOKEN, body: {} });
    expect(ok.body.state).toBe("queued");
    const twice = await t.call("POST", `/admin/withdrawals/${big.body.id}/approve`, { token: ADMIN_TOKEN, body: {} });
    expect(twice.status).toBe(409);
    expect((await settle(big.body.id, solver.token)).state).toBe("confirmed");
    expect(await transfersTo(solver.address)).toEqual([60n * USDC]);

    const other = await withdraw(solver.token, 70n * USDC);
    expect(other.body.state).toBe("awaiting_approval");
    const rej = await t.call("POST", `/admin/withdrawals/${other.body.id}/reject`, {
      token: ADMIN_TOKEN,
      body: { reason: "unusual" },
    });
    expect(rej.body).toMatchObject({ state: "rejected", reason: "rejected:unusual" });
    const me = await t.call("GET", `/admin/withdrawals?state=rejected`, { token: ADMIN_TOKEN });
    expect(me.body.withdrawals.map((w: { id: string }) => w.id)).toContain(other.body.id);
    expect(await verified()).toBe(true);
    // 200 credited, 60 paid out, 70 returned: 140 left to withdraw.
    const over = await withdraw(solver.token, 141n * USDC);
    expect(over.status).toBe(409);
    expect(over.body.error).toBe("INSUFFICIENT_BALANCE");
  });

  it("a transfer the chain refuses for a day fails and returns the money once", async () => {
    const solver = await signIn(t);
    await credit(t, solver.address, 10n * USDC);
    // The token refuses transfers to this address: every estimate reverts.
    await chain.anvil.walletClient.writeContract({
      address: chain.usdc,
      abi: parseAbi(["function setBlacklisted(address account, bool value)"]),
      functionName: "setBlacklisted",
      args: [solver.address as Address, true],
    });
    await chain.mine(1);
    const r = await withdraw(solver.token, 10n * USDC);
    t.clock.advance(1_000);
    await runWithdrawals(t.deps);
    expect((await mine(solver.token, r.body.id)).reason).toMatch(/^waiting:/);
    t.clock.advance(25 * 3600_000);
    await runWithdrawals(t.deps);
    await runWithdrawals(t.deps);
    const fresh = await signIn(t, solver.account); // the day outlived the session
    const w = await mine(fresh.token, r.body.id);
    expect(w).toMatchObject({ state: "failed", reason: expect.stringMatching(/^refused:/) });
    // The whole balance is back (one return), and it can be withdrawn again.
    const again = await withdraw(fresh.token, 10n * USDC);
    expect(again.status, again.text).toBe(201);
    const third = await withdraw(fresh.token, 1n);
    expect(third.status).toBe(409);
    expect(await verified()).toBe(true);
  });

  it("the MCP tool `withdraw` is the same verb: debits once per idempotency key, paid by the worker", async () => {
    const solver = await signIn(t);
    await credit(t, solver.address, 5n * USDC);
    const session = await openSession(t, solver.token);
    const args = { amount: (3n * USDC).toString(), idempotency_key: "mcp-wd-1" };
    const r = await callTool(t, session, "withdraw", args, solver.token);
    expect(r.isError, r.content[0]?.text).toBe(false);
    expect(r.structuredContent).toMatchObject({ state: "queued", amount: "3000000", to: solver.address });
    const again = await callTool(t, session, "withdraw", args, solver.token);
    expect(again.structuredContent.id).toBe(r.structuredContent.id);
    expect((await settle(r.structuredContent.id, solver.token)).state).toBe("confirmed");
    expect(await transfersTo(solver.address)).toEqual([3n * USDC]);
    const anonymous = await callTool(t, await openSession(t), "withdraw", { amount: "1" });
    expect(anonymous.isError).toBe(true);
  });

  it("concurrent requests cannot slip past the cap together (serialised; on PostgreSQL with DATABASE_URL)", async () => {
    const solver = await signIn(t);
    await credit(t, solver.address, 200n * USDC);
    const all = await Promise.all(Array.from({ length: 6 }, () => withdraw(solver.token, 20n * USDC)));
    expect(all.map((r) => r.status)).toEqual(Array(6).fill(201));
    const states = all.map((r) => r.body.state).sort();
    // 50 a day for one agent: two of 20 fit, the other four wait for the operator.
    expect(states).toEqual([
      "awaiting_approval",
      "awaiting_approval",
      "awaiting_approval",
      "awaiting_approval",
      "queued",
      "queued",
    ]);
    expect(await verified()).toBe(true);
  });
});
