import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { chainPayouts, escrowDeposits, missions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { Ctx } from "../../lib/context";

// GET /transparency, base rail (issue 19 item 7): what the database says the escrow contract holds,
// reconciled against the contract's on-chain token balance, both at ONE block — the confirmed
// ("safe") head, so a deposit or payout still short of its depth is on neither side.
//
// held (database) = Σ amount of accepted deposits (pending, confirmed, final) mined at or below that
//   block whose payout (release or refund) is not mined (confirmed or final) — the money the
//   server owes out of the contract.
// on_chain = balanceOf(escrow contract) at that block.
// reconciled = on_chain ≥ held: the contract covers every deposit the server holds. The difference
//   (on_chain − held) is ≥ 0 in a healthy system: pull credits of recipients who could not receive
//   (not withdrawn yet), rejected deposits waiting for their funder's reclaim/selfRefund, tokens
//   sent to the contract directly. A negative difference is a shortfall and is never explained away.
// A payout mined but not yet seen by the settlement worker shows as a shortfall until its next tick.

/** Per-instance reuse of one reading (RPC load stays one read per token per window whatever the traffic). */
const CACHE_MS = 10_000;
const caches = new WeakMap<object, { at: number; doc: BaseReconciliation }>();

export type BaseReconciliation = Awaited<ReturnType<typeof read>>;

export async function baseReconciliation(ctx: Ctx) {
  const { deps, now } = ctx;
  const key = deps.chain ?? deps.config;
  const hit = caches.get(key);
  if (hit && now.getTime() >= hit.at && now.getTime() - hit.at < CACHE_MS) return hit.doc;
  const doc = await read(deps, now);
  caches.set(key, { at: now.getTime(), doc });
  return doc;
}

async function read(deps: Deps, now: Date) {
  const chain = deps.chain;
  const asOf = now.toISOString();
  if (!chain) {
    const off = deps.config.baseRailOff ?? "off";
    return {
      enabled: false as const,
      off_reason: off,
      rpc: off === "no_rpc_url" ? ("not_configured" as const) : ("not_used" as const),
      note:
        off === "no_rpc_url"
          ? "no RPC is configured (OABP_RPC_URL): the base rail is off and nothing is reconciled on chain"
          : `the base rail is off (${off}): nothing is reconciled on chain`,
      chain_id: null,
      escrow_contract: null,
      block_number: null,
      as_of: asOf,
      assets: [] as ReconciledAsset[],
    };
  }
  let block: number | null = null;
  let rpcError: string | null = null;
  try {
    block = (await chain.heads()).confirmed;
  } catch (err) {
    rpcError = err instanceof Error ? err.message.split("\n")[0]!.slice(0, 200) : String(err);
  }
  // Configured tokens on this chain, plus any token a deposit used.
  const tokens = new Map<string, string>();
  for (const a of deps.config.assets) {
    const addr = a.addresses.base?.toLowerCase();
    if (addr) tokens.set(addr, a.symbol);
  }
  const held =
    block === null
      ? []
      : await deps.database.db
          .select({
            token: escrowDeposits.token,
            asset: sql<string>`min(${missions.rewardAsset})`,
            amount: sql<string>`coalesce(sum(${escrowDeposits.amount}), 0)::text`,
            deposits: sql<number>`count(*)::int`,
          })
          .from(escrowDeposits)
          .innerJoin(missions, eq(missions.id, escrowDeposits.missionId))
          .where(
            and(
              eq(escrowDeposits.chainId, chain.chainId),
              inArray(escrowDeposits.status, ["pending", "confirmed", "final"]),
              lte(escrowDeposits.blockNumber, block),
              sql`not exists (select 1 from ${chainPayouts} p where p.deposit_id = ${escrowDeposits.id} and p.state in ('confirmed', 'final') and p.block_number <= ${block})`,
            ),
          )
          .groupBy(escrowDeposits.token);
  for (const h of held) if (!tokens.has(h.token)) tokens.set(h.token, h.asset);
  const byToken = new Map(held.map((h) => [h.token, h]));
  const assets: ReconciledAsset[] = [];
  for (const [token, asset] of [...tokens].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const h = byToken.get(token);
    let onChain: bigint | null = null;
    if (block !== null && rpcError === null) {
      try {
        onChain = await chain.tokenBalance(token, chain.escrow, block);
      } catch (err) {
        rpcError = err instanceof Error ? err.message.split("\n")[0]!.slice(0, 200) : String(err);
      }
    }
    const heldAmount = BigInt(h?.amount ?? "0");
    assets.push({
      asset,
      token,
      held: block === null ? null : heldAmount.toString(),
      deposits: block === null ? null : (h?.deposits ?? 0),
      on_chain: onChain === null ? null : onChain.toString(),
      difference: onChain === null ? null : (onChain - heldAmount).toString(),
      reconciled: onChain === null ? null : onChain >= heldAmount,
    });
  }
  return {
    enabled: true as const,
    off_reason: null,
    rpc: rpcError === null ? ("ok" as const) : ("unavailable" as const),
    ...(rpcError === null ? {} : { rpc_error: rpcError }),
    note: "held = accepted deposits at or below block_number without a mined payout; reconciled = on_chain ≥ held; difference = on_chain − held (pull credits, rejected deposits awaiting their funder, direct transfers)",
    chain_id: chain.chainId,
    escrow_contract: chain.escrow,
    block_number: block,
    as_of: asOf,
    assets,
  };
}

export interface ReconciledAsset {
  asset: string;
  token: string;
  held: string | null;
  deposits: number | null;
  on_chain: string | null;
  difference: string | null;
  reconciled: boolean | null;
}
