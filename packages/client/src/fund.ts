import { createPublicClient, createWalletClient, defineChain, http, type LocalAccount } from "viem";
import type { OabpClient } from "./client.js";
import { OabpError } from "./errors.js";
import { fundSlot, type FundStep, type PermitMode } from "./escrow-fund.js";
import { sleep } from "./follow.js";
import type { Mission } from "./types.js";

// Funding a base-rail mission from the creator's wallet (README "Base rail"): a permit or an
// approval for reward + spam fee, fundUntil(key, token, amount, spamFee, escrow.refund_after) with
// gas headroom (escrow-fund.ts), attach the transaction, then wait until the deposit reaches the
// server's confirmation depth and the mission opens.

export type FundProgress =
  | FundStep
  | { step: "attached"; deposit_status: string }
  | { step: "waiting"; mission_status: string; phase: string }
  | { step: "open"; mission: Mission };

export interface FundOptions {
  rpcUrl: string;
  account: LocalAccount;
  onProgress?: (p: FundProgress) => void;
  pollMs?: number;
  /** Give up waiting for the mission to open after this many polls (default 900). */
  maxPolls?: number;
  signal?: AbortSignal;
  /** "auto" (default): permit when the token and the escrow support it, else approve. */
  permit?: PermitMode;
}

export async function fundMission(client: OabpClient, missionId: string, opts: FundOptions): Promise<Mission> {
  await client.ensureSession(); // a pending_escrow mission is visible to its creator only
  const m = await client.getMission(missionId);
  const e = m.escrow;
  if (!e) throw new OabpError(0, "NOT_BASE_RAIL", `mission ${missionId} is not escrowed on the base rail`);
  if (m.status !== "pending_escrow") return m;
  const chain = defineChain({
    id: e.chain_id,
    name: `chain-${e.chain_id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [opts.rpcUrl] } },
  });
  const transport = http(opts.rpcUrl, { timeout: 30_000 });
  const pub = createPublicClient({ chain, transport, pollingInterval: opts.pollMs ?? 1_000 });
  const rpcChain = await pub.getChainId();
  if (rpcChain !== e.chain_id)
    throw new OabpError(
      0,
      "WRONG_CHAIN",
      `the RPC serves chain ${rpcChain}; the mission escrows on chain ${e.chain_id}`,
    );
  const wallet = createWalletClient({ chain, transport, account: opts.account });
  const { tx_hash: fund } = await fundSlot({
    pub,
    wallet,
    terms: e,
    permit: opts.permit,
    onStep: (step) => opts.onProgress?.(step),
  });
  const attached = await client.attachDeposit(missionId, fund);
  opts.onProgress?.({ step: "attached", deposit_status: attached.escrow?.deposit?.status ?? "pending" });
  for (let i = 0; i < (opts.maxPolls ?? 900); i++) {
    const now = await client.getMission(missionId);
    if (now.status !== "pending_escrow") {
      opts.onProgress?.({ step: "open", mission: now });
      return now;
    }
    opts.onProgress?.({ step: "waiting", mission_status: now.status, phase: now.phase });
    if (opts.signal?.aborted) break;
    await sleep(opts.pollMs ?? 2_000, opts.signal);
  }
  throw new OabpError(
    0,
    "TIMEOUT",
    `mission ${missionId} did not open; the deposit ${fund} is attached and the server keeps watching it`,
  );
}
