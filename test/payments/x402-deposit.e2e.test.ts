import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { eq } from "drizzle-orm";
import type { Hex } from "viem";
import { beforeEach, describe, expect, it } from "vitest";
import { ledgerEntries } from "../../src/db/schema/index";
import { balancesOf, verifyLedger } from "../../src/features/ledger/ledger.service";
import type { TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import type { EscrowChain } from "../helpers/escrow-chain";
import { relayer, useRelayerApp } from "../helpers/relayer-app";
import { agentWithUsdc, appFetch, decodeX402, expectPaymentRequired, postRequest } from "../helpers/x402-client";
import { openSession, request, rpc } from "../helpers/mcp";
import { recoverPayments } from "../../src/features/payments/payments.recover";

// docs/payments.md: the official x402 client (@x402/fetch + @x402/evm's exact
// scheme with a viem account) pays POST /agents/me/deposits on anvil. The agent holds USDC and
// no ETH; the server's relayer settles; the balance is credited once and the ledger verifies; the
// same PAYMENT-SIGNATURE again credits nothing; an underpaid or expired authorization is refused
// with the 402's x402 reason.

const DEPOSIT = 10_000_000n; // 10 USDC

let chain: EscrowChain;
let t: TestApp;
useRelayerApp((s) => ({ chain, t } = s));
// The official client signs with the wall clock (validBefore = now + maxTimeoutSeconds): each test
// starts the server's clock there.
beforeEach(() => t.clock.set(new Date()));

const depositRequest = (token: string, amount = DEPOSIT) =>
  postRequest(token, "/agents/me/deposits", { asset: "USDC", amount: amount.toString() });
const usdcOnLedger = async (address: string) =>
  (await balancesOf(t.deps.database.db, `agent:${address}`)).get("USDC") ?? 0n;

/** The agent's paid deposit through `f` is refused with the 402's `reason`, and no USDC moves. */
async function expectRefused(agent: Awaited<ReturnType<typeof agentWithUsdc>>, f: typeof fetch, reason: string) {
  const res = await wrapFetchWithPayment(f, agent.client)(...depositRequest(agent.token));
  expect(res.status).toBe(402);
  expect(decodeX402(res.headers.get("PAYMENT-REQUIRED")).error).toBe(reason);
  expect(await chain.usdcBalance(agent.address)).toBe(DEPOSIT);
  expect(await usdcOnLedger(agent.address)).toBe(0n);
}

describe("x402 deposits with the official client", () => {
  it("answers 402 with PAYMENT-REQUIRED: exact, the chain's CAIP-2 network, USDC, the treasury, the amount, name/version", async () => {
    const agent = await signIn(t);
    const r = await t.app.request(...depositRequest(agent.token));
    const required = await expectPaymentRequired(r, chain, DEPOSIT);
    expect(required.accepts[0]).toMatchObject({
      maxTimeoutSeconds: expect.any(Number),
      extra: { name: "Test USD Coin", version: "1" },
    });
    expect(await r.json()).toEqual(required);
  });

  it("an agent with only a wallet and USDC pays the 402; credited once; the ledger verifies; a replay credits nothing", async () => {
    const agent = await agentWithUsdc({ t, chain }, DEPOSIT);
    const treasuryBefore = await chain.usdcBalance(chain.treasury);
    const { fetch: f, seen } = appFetch(t);
    const pay = wrapFetchWithPayment(f, agent.client);
    const res = await pay(...depositRequest(agent.token));
    const body = (await res.json()) as { id: string; tx_hash: Hex };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      status: "credited",
      amount: DEPOSIT.toString(),
      balance: DEPOSIT.toString(),
      replayed: false,
    });
    const settlement = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE") ?? "");
    expect(settlement).toMatchObject({ success: true, network: "eip155:8453", transaction: body.tx_hash });
    expect(settlement.payer?.toLowerCase()).toBe(agent.address);
    // The USDC moved from the agent to the treasury; the agent paid no gas (it has none).
    expect(await chain.usdcBalance(agent.address)).toBe(0n);
    expect(await chain.usdcBalance(chain.treasury)).toBe(treasuryBefore + DEPOSIT);
    expect(await chain.ethBalance(agent.address)).toBe(0n);
    const receipt = await chain.anvil.publicClient.getTransactionReceipt({ hash: body.tx_hash });
    expect(receipt.from.toLowerCase()).toBe(relayer.address.toLowerCase());
    // The ledger: one credit entry to the agent, carrying the transaction; the chain verifies.
    const entries = await t.deps.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.account, `agent:${agent.address}`));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: "x402_deposit", amount: DEPOSIT.toString(), ref: body.tx_hash });
    expect(await verifyLedger(t.deps.database.db)).toMatchObject({ ok: true, problems: [] });
    expect(await usdcOnLedger(agent.address)).toBe(DEPOSIT);

    // The same PAYMENT-SIGNATURE again (a retry, or someone replaying it): nothing is credited.
    const paid = seen.find((r) => r.headers.has("PAYMENT-SIGNATURE"));
    const header = paid?.headers.get("PAYMENT-SIGNATURE") ?? "";
    const again = await t.call("POST", "/agents/me/deposits", {
      token: agent.token,
      headers: { "PAYMENT-SIGNATURE": header },
      body: { asset: "USDC", amount: DEPOSIT.toString() },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({
      id: body.id,
      replayed: true,
      balance: DEPOSIT.toString(),
      tx_hash: body.tx_hash,
    });
    // Another agent presenting it is refused, and credited nothing either.
    const thief = await signIn(t);
    const stolen = await t.call("POST", "/agents/me/deposits", {
      token: thief.token,
      headers: { "PAYMENT-SIGNATURE": header },
      body: { asset: "USDC", amount: DEPOSIT.toString() },
    });
    expect(stolen.status).toBe(402);
    expect(stolen.body.error).toBe("payment_already_used");
    // One transfer: external → the agent (two entries), nothing more.
    const after = await t.deps.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, "x402_deposit"));
    expect(after.map((e) => [e.account, e.amount]).sort()).toEqual([
      [`agent:${agent.address}`, DEPOSIT.toString()],
      ["external", (-DEPOSIT).toString()],
    ]);
    expect(await chain.usdcBalance(chain.treasury)).toBe(treasuryBefore + DEPOSIT);
    expect(await usdcOnLedger(agent.address)).toBe(DEPOSIT);
    expect(await usdcOnLedger(thief.address)).toBe(0n);
    expect(await verifyLedger(t.deps.database.db)).toMatchObject({ ok: true });
  }, 60_000);

  it("an underpaid authorization is refused with the 402's reason and moves nothing", async () => {
    const agent = await agentWithUsdc({ t, chain }, DEPOSIT);
    // The client is shown a lower amount than the route requires, and signs for it.
    const { fetch: f } = appFetch(t, {
      response: (res) => {
        if (res.status !== 402) return res;
        const required = decodeX402(res.headers.get("PAYMENT-REQUIRED"));
        if (required.error !== "payment_required") return res;
        required.accepts[0].amount = (DEPOSIT - 1n).toString();
        const headers = new Headers(res.headers);
        headers.set("PAYMENT-REQUIRED", Buffer.from(JSON.stringify(required)).toString("base64"));
        return new Response(JSON.stringify(required), { status: 402, headers });
      },
    });
    await expectRefused(agent, f, "invalid_exact_evm_payload_authorization_value_mismatch");
  }, 60_000);

  it("an expired authorization is refused with the 402's reason and moves nothing", async () => {
    const agent = await agentWithUsdc({ t, chain }, DEPOSIT);
    // The signed request reaches the server after its authorization ran out.
    const { fetch: f } = appFetch(t, {
      request: async (req) => {
        if (!req.headers.has("PAYMENT-SIGNATURE")) return;
        const payload = decodeX402(req.headers.get("PAYMENT-SIGNATURE"));
        const validBefore = Number(payload.payload.authorization.validBefore) * 1000;
        t.clock.advance(validBefore - t.clock.now().getTime() + 1000);
      },
    });
    await expectRefused(agent, f, "invalid_exact_evm_payload_authorization_valid_before");
  }, 60_000);
});

describe('x402 deposits: a crash between the transfer and the credit (docs/payments.md "Exactly once")', () => {
  it.each([
    ["after the transfer was mined", true],
    ["before the transfer was sent", false],
  ])(
    "a request that dies %s is credited once by the recovery job",
    async (_when, sendFirst) => {
      const agent = await agentWithUsdc({ t, chain }, DEPOSIT);
      const relay = t.deps.chain!.relayer!;
      const real = relay.transferWithAuthorization;
      relay.transferWithAuthorization = async (...args) => {
        if (sendFirst) await real(...args);
        throw new Error("killed");
      };
      const { fetch: f, seen } = appFetch(t);
      let res: Response;
      try {
        res = await wrapFetchWithPayment(f, agent.client)(...depositRequest(agent.token));
      } finally {
        relay.transferWithAuthorization = real;
      }
      expect(res.status).toBe(503);
      expect(((await res.json()) as { details: { reason: string } }).details.reason).toBe("settlement_pending");
      expect(await usdcOnLedger(agent.address)).toBe(0n);
      expect(await chain.usdcBalance(agent.address)).toBe(sendFirst ? 0n : DEPOSIT);

      // The restarted worker finds the recorded payment once it is stale and finishes it, once.
      expect(await recoverPayments(t.deps)).toBe(0);
      t.clock.advance(61_000);
      expect(await recoverPayments(t.deps)).toBe(1);
      expect(await recoverPayments(t.deps)).toBe(0);
      expect(await usdcOnLedger(agent.address)).toBe(DEPOSIT);
      expect(await chain.usdcBalance(agent.address)).toBe(0n);
      const entries = await t.deps.database.db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.account, `agent:${agent.address}`));
      expect(entries).toHaveLength(1);
      expect(entries[0]?.ref).toMatch(/^0x[0-9a-f]{64}$/);
      // The client retrying the same payment gets the credit it paid for, and nothing more.
      const header = seen.find((r) => r.headers.has("PAYMENT-SIGNATURE"))?.headers.get("PAYMENT-SIGNATURE") ?? "";
      const again = await t.call("POST", "/agents/me/deposits", {
        token: agent.token,
        headers: { "PAYMENT-SIGNATURE": header },
        body: { asset: "USDC", amount: DEPOSIT.toString() },
      });
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({ replayed: true, balance: DEPOSIT.toString(), tx_hash: entries[0]?.ref });
      expect(await verifyLedger(t.deps.database.db)).toMatchObject({ ok: true });
    },
    60_000,
  );
});

describe("x402 deposits over MCP (x402 v2 MCP transport)", () => {
  it("deposit without payment answers the PaymentRequired as an error result; with _meta x402/payment it settles once", async () => {
    const agent = await agentWithUsdc({ t, chain }, DEPOSIT);
    const session = await openSession(t, agent.token);
    const args = { asset: "USDC", amount: DEPOSIT.toString() };
    const first = await rpc(t, request("tools/call", { name: "deposit", arguments: args }), {
      session,
      token: agent.token,
    });
    const required = first.body.result;
    expect(required.isError).toBe(true);
    expect(required.structuredContent).toMatchObject({
      x402Version: 2,
      error: "payment_required",
      resource: { url: "mcp://tool/deposit" },
      accepts: [{ scheme: "exact", network: "eip155:8453", amount: DEPOSIT.toString() }],
    });
    expect(JSON.parse(required.content[0].text)).toEqual(required.structuredContent);

    // The official client makes the PaymentPayload from the structured requirement.
    const payment = await agent.client.createPaymentPayload(required.structuredContent);
    const call = () =>
      rpc(t, request("tools/call", { name: "deposit", arguments: args, _meta: { "x402/payment": payment } }), {
        session,
        token: agent.token,
      });
    const paid = (await call()).body.result;
    expect(paid.isError, JSON.stringify(paid)).toBe(false);
    expect(paid.structuredContent).toMatchObject({ status: "credited", balance: DEPOSIT.toString(), replayed: false });
    expect(paid._meta["x402/payment-response"]).toMatchObject({
      success: true,
      network: "eip155:8453",
      transaction: paid.structuredContent.tx_hash,
    });
    const again = (await call()).body.result;
    expect(again.structuredContent).toMatchObject({ replayed: true, balance: DEPOSIT.toString() });
    expect(await usdcOnLedger(agent.address)).toBe(DEPOSIT);
    expect(await chain.usdcBalance(agent.address)).toBe(0n);
  }, 60_000);
});

describe("x402 deposits: the same payment twice at once", () => {
  it("two concurrent requests with one PAYMENT-SIGNATURE credit it once", async () => {
    const agent = await agentWithUsdc({ t, chain }, DEPOSIT);
    const first = await t.app.request(...depositRequest(agent.token));
    const payment = await agent.client.createPaymentPayload(decodeX402(first.headers.get("PAYMENT-REQUIRED")));
    const header = Buffer.from(JSON.stringify(payment)).toString("base64");
    const send = () =>
      t.call("POST", "/agents/me/deposits", {
        token: agent.token,
        headers: { "PAYMENT-SIGNATURE": header },
        body: { asset: "USDC", amount: DEPOSIT.toString() },
      });
    const answers = await Promise.all([send(), send()]);
    // Each answer is the credit (first or replayed) or "still settling, retry" — never a second credit.
    for (const a of answers) expect([200, 409, 503], a.text).toContain(a.status);
    expect(answers.filter((a) => a.status === 200 && a.body.replayed === false)).toHaveLength(1);
    const again = await send();
    expect(again.body).toMatchObject({ replayed: true, balance: DEPOSIT.toString() });
    expect(await usdcOnLedger(agent.address)).toBe(DEPOSIT);
    expect(await chain.usdcBalance(agent.address)).toBe(0n);
    expect(await verifyLedger(t.deps.database.db)).toMatchObject({ ok: true });
  }, 60_000);
});
