import { x402HTTPClient } from "@x402/core/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ledgerEntries, missions, x402Payments } from "../../src/db/schema/index";
import { balancesOf, verifyLedger } from "../../src/features/ledger/ledger.service";
import type { TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import type { EscrowChain } from "../helpers/escrow-chain";
import { useRelayerApp } from "../helpers/relayer-app";
import { agentWithUsdc, appFetch, decodeX402, expectPaymentRequired, postRequest } from "../helpers/x402-client";

// docs/payments.md "Fees paid in the request": the official x402 client (@x402/fetch + @x402/evm's
// exact scheme) pays a ledger-rail mission's reward and spam fee in the create request itself on
// anvil. The agent holds USDC, no ETH and a zero ledger balance; the 402 asks exactly what the
// balance lacks; the mission exists, the ledger verifies, a replayed payment credits nothing, and a
// create that fails after the payment for another reason leaves the deposit on the balance.

const REWARD = 10_000_000n; // 10 USDC
const SPAM_FEE = 5_000_000n; // the chain helper's USDC spam fee

let chain: EscrowChain;
let t: TestApp;
useRelayerApp((s) => ({ chain, t } = s));
// The official client signs with the wall clock: each test starts the server's clock there.
beforeEach(() => t.clock.set(new Date()));

const createRequest = (token: string, body: Record<string, unknown>) => postRequest(token, "/missions", body);
const usdcOnLedger = async (address: string) =>
  (await balancesOf(t.deps.database.db, `agent:${address}`)).get("USDC") ?? 0n;
const missionsOf = (address: string) => t.deps.database.db.select().from(missions).where(eq(missions.creator, address));
const reward = { asset: "USDC", amount: REWARD.toString() };

describe("a mission's reward and spam fee paid by x402 in the create request", () => {
  it("a create the balance cannot cover answers 402 for exactly the missing amount, with the JSON error code", async () => {
    const agent = await signIn(t);
    const empty = await t.app.request(...createRequest(agent.token, missionBody(t, { reward })));
    await expectPaymentRequired(empty, chain, REWARD + SPAM_FEE);
    const body = (await empty.json()) as { error: string; details: Record<string, unknown> };
    expect(body.error).toBe("INSUFFICIENT_BALANCE");
    expect(body.details).toMatchObject({ reason: "payment_required", missing: (REWARD + SPAM_FEE).toString() });
    // With part of it on the balance, the 402 asks only for the rest.
    await credit(t, agent.address, 3_000_000n);
    const partial = await t.app.request(...createRequest(agent.token, missionBody(t, { reward })));
    expect(partial.status).toBe(402);
    expect(decodeX402(partial.headers.get("PAYMENT-REQUIRED")).accepts[0].amount).toBe(
      (REWARD + SPAM_FEE - 3_000_000n).toString(),
    );
    expect(await missionsOf(agent.address)).toHaveLength(0);
  });

  it("@x402/fetch pays the 402: the mission exists, the ledger verifies, a replayed payment credits nothing", async () => {
    const agent = await agentWithUsdc({ t, chain }, REWARD + SPAM_FEE);
    expect(await usdcOnLedger(agent.address)).toBe(0n);
    const treasuryBefore = await chain.usdcBalance(chain.treasury);
    const { fetch: f, seen } = appFetch(t);
    const res = await wrapFetchWithPayment(f, agent.client)(...createRequest(agent.token, missionBody(t, { reward })));
    const mission = (await res.json()) as { id: string; status: string };
    expect(res.status, JSON.stringify(mission)).toBe(201);
    expect(mission.status).toBe("open");
    const settlement = decodePaymentResponseHeader(res.headers.get("PAYMENT-RESPONSE") ?? "");
    expect(settlement).toMatchObject({ success: true, network: "eip155:8453" });
    expect(settlement.payer?.toLowerCase()).toBe(agent.address);
    // The USDC went to the treasury, relayed (the agent has no gas); the ledger: credited, then debited.
    expect(await chain.usdcBalance(agent.address)).toBe(0n);
    expect(await chain.usdcBalance(chain.treasury)).toBe(treasuryBefore + REWARD + SPAM_FEE);
    const got = await t.call("GET", `/missions/${mission.id}`);
    expect(got.status).toBe(200);
    const entries = await t.deps.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.account, `agent:${agent.address}`))
      .orderBy(asc(ledgerEntries.seq));
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ["x402_deposit", (REWARD + SPAM_FEE).toString()],
      ["mission_funding", (-(REWARD + SPAM_FEE)).toString()],
    ]);
    expect(entries[0]?.ref).toBe(settlement.transaction.toLowerCase());
    const [payment] = await t.deps.database.db
      .select()
      .from(x402Payments)
      .where(eq(x402Payments.agentId, `agent:${agent.address}`));
    expect(payment).toMatchObject({ purpose: "mission_fee", status: "credited" });
    expect(await usdcOnLedger(agent.address)).toBe(0n);
    expect(await verifyLedger(t.deps.database.db)).toMatchObject({ ok: true, problems: [] });

    // The same PAYMENT-SIGNATURE on another create: nothing is credited, nothing is created.
    const header = seen.find((r) => r.headers.has("PAYMENT-SIGNATURE"))?.headers.get("PAYMENT-SIGNATURE") ?? "";
    const replay = await t.call("POST", "/missions", {
      token: agent.token,
      headers: { "PAYMENT-SIGNATURE": header },
      body: missionBody(t, { reward, title: "Again" }),
    });
    expect(replay.status, replay.text).toBe(402);
    expect(replay.body.error).toBe("INSUFFICIENT_BALANCE");
    const deposits = await t.deps.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.ref, entries[0]!.ref!));
    expect(deposits).toHaveLength(2); // external → agent, once
    expect(await missionsOf(agent.address)).toHaveLength(1);
    expect(await usdcOnLedger(agent.address)).toBe(0n);
    expect(await chain.usdcBalance(chain.treasury)).toBe(treasuryBefore + REWARD + SPAM_FEE);
    expect(await verifyLedger(t.deps.database.db)).toMatchObject({ ok: true });
  }, 60_000);

  it("a create refused for another reason after the payment leaves the deposit on the balance", async () => {
    const agent = await agentWithUsdc({ t, chain }, REWARD + SPAM_FEE);
    const first = await t.app.request(...createRequest(agent.token, missionBody(t, { reward })));
    expect(first.status).toBe(402);
    const http = new x402HTTPClient(agent.client);
    const required = http.getPaymentRequiredResponse((n) => first.headers.get(n));
    const headers = http.encodePaymentSignatureHeader(await http.createPaymentPayload(required));
    // The paid retry names a deadline already past: the payment settles, the create is refused.
    const late = await t.call("POST", "/missions", {
      token: agent.token,
      headers,
      body: missionBody(t, { reward, deadline: new Date(t.clock.now().getTime() - 1000).toISOString() }),
    });
    expect(late.status, late.text).toBe(422);
    expect(late.body.details.reason).toBe("deadline_in_past");
    expect(decodePaymentResponseHeader(late.headers.get("PAYMENT-RESPONSE") ?? "")).toMatchObject({ success: true });
    expect(await usdcOnLedger(agent.address)).toBe(REWARD + SPAM_FEE);
    expect(await missionsOf(agent.address)).toHaveLength(0);
    // The balance now covers the create: it runs without a payment.
    const ok = await t.call("POST", "/missions", { token: agent.token, body: missionBody(t, { reward }) });
    expect(ok.status, ok.text).toBe(201);
    expect(await usdcOnLedger(agent.address)).toBe(0n);
    expect(await verifyLedger(t.deps.database.db)).toMatchObject({ ok: true });
  }, 60_000);
});
