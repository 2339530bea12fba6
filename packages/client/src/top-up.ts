import { randomUUID } from "node:crypto";
import { createPublicClient, createWalletClient, defineChain, http, type LocalAccount } from "viem";
import type { OabpClient } from "./client.js";
import { OabpError } from "./errors.js";
import { fundSlot, type FundStep, type PermitMode } from "./escrow-fund.js";
import { sleep } from "./follow.js";

// A base-rail top-up from the funder's wallet (docs/base-rail.md "Funding from the tools"): the
// server records a pending amendment with its own escrow slot (POST /missions/{id}/amendments,
// kind top_up → 202 with `escrow`, refund_after in unix seconds); the wallet funds that slot with
// fundUntil(…, refund_after) exactly as a mission's deposit (escrow-fund.ts); the watcher applies
// the amendment once the deposit reaches the confirmation depth. A ledger top-up applies at once.

export interface TopUpAmendment {
  id: string;
  status: string;
  amount: string | null;
  escrow: {
    chain_id: number;
    contract: string;
    token: string;
    mission_key: string;
    amount: string;
    spam_fee: string;
    refund_after: number;
    deposit_tx_hash: string | null;
  } | null;
}

export type TopUpProgress = FundStep | { step: "waiting"; status: string } | { step: "applied"; amendment_id: string };

export interface TopUpOptions {
  rpcUrl?: string;
  account?: LocalAccount;
  permit?: PermitMode;
  onProgress?: (p: TopUpProgress) => void;
  pollMs?: number;
  maxPolls?: number;
}

export async function topUpMission(
  client: OabpClient,
  missionId: string,
  amount: bigint,
  opts: TopUpOptions = {},
): Promise<TopUpAmendment> {
  const base = `/missions/${encodeURIComponent(missionId)}/amendments`;
  const a = (await client.raw(
    "POST",
    base,
    { kind: "top_up", amount: amount.toString() },
    {
      "idempotency-key": randomUUID(),
    },
  )) as TopUpAmendment;
  if (a.status === "applied" || !a.escrow) return a; // the ledger rail: done
  const e = a.escrow;
  const account = opts.account ?? (await client.account());
  if (!opts.rpcUrl || !account)
    throw new OabpError(0, "NO_WALLET", `top-up ${a.id} waits for a deposit: it needs an RPC URL and the funder's key`);
  const chain = defineChain({
    id: e.chain_id,
    name: `chain-${e.chain_id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [opts.rpcUrl] } },
  });
  const transport = http(opts.rpcUrl, { timeout: 30_000 });
  const pub = createPublicClient({ chain, transport, pollingInterval: opts.pollMs ?? 1_000 });
  if ((await pub.getChainId()) !== e.chain_id)
    throw new OabpError(0, "WRONG_CHAIN", `the RPC does not serve chain ${e.chain_id}, where the top-up escrows`);
  const wallet = createWalletClient({ chain, transport, account });
  await fundSlot({ pub, wallet, terms: e, permit: opts.permit, onStep: (s) => opts.onProgress?.(s) });
  for (let i = 0; i < (opts.maxPolls ?? 900); i++) {
    const list = (await client.raw("GET", `${base}?limit=100`)) as { amendments: TopUpAmendment[] };
    const now = list.amendments.find((x) => x.id === a.id);
    if (now && now.status !== "pending") {
      if (now.status === "applied") opts.onProgress?.({ step: "applied", amendment_id: now.id });
      return now;
    }
    opts.onProgress?.({ step: "waiting", status: now?.status ?? "pending" });
    await sleep(opts.pollMs ?? 2_000);
  }
  throw new OabpError(0, "TIMEOUT", `top-up ${a.id} is funded but not applied yet; the server keeps watching it`);
}
