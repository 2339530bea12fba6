import { and, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { chainEvents, chainPayouts, escrowDeposits, missions } from "../../db/schema/index";
import { pendingGovernance, recentGovernance } from "./escrow.governance";
import { addressLiteral } from "./escrow.wire";
import type { Deps } from "../../deps";
import type { Ctx } from "../../lib/context";

// GET /transparency, base rail: what the database says the escrow contract holds,
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
      contracts: [] as ReconciledContract[],
      governance: {
        pending: [] as Awaited<ReturnType<typeof pendingGovernance>>,
        recent: [] as Awaited<ReturnType<typeof recentGovernance>>,
      },
    };
  }
  let block: number | null = null;
  let rpcError: string | null = null;
  const fail = (err: unknown) =>
    (rpcError = err instanceof Error ? err.message.split("\n")[0]!.slice(0, 200) : String(err));
  try {
    block = (await chain.heads()).confirmed;
  } catch (err) {
    fail(err);
  }
  // Configured tokens on this chain, plus any token a deposit used.
  const tokens = new Map<string, string>();
  for (const a of deps.config.assets) {
    const addr = a.addresses.base?.toLowerCase();
    if (addr) tokens.set(addr, a.symbol);
  }
  const contractOf = sql<string>`coalesce(${escrowDeposits.escrowAddress}, ${addressLiteral(chain.escrow)})`;
  const held =
    block === null
      ? []
      : await deps.database.db
          .select({
            contract: contractOf,
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
              // A slot its funder took back (SelfRefunded, Reclaimed) is no longer held (escrow.exits.ts).
              sql`(${escrowDeposits.exitedBlock} is null or ${escrowDeposits.exitedBlock} > ${block})`,
              sql`not exists (select 1 from ${chainPayouts} p where p.deposit_id = ${escrowDeposits.id} and p.state in ('confirmed', 'final') and p.block_number <= ${block})`,
            ),
          )
          .groupBy(contractOf, escrowDeposits.token);
  const exits = await exitedSlots(deps, chain.chainId, chain.escrow);
  const credits = await creditTotals(deps, chain.chainId);
  for (const h of held) if (!tokens.has(h.token)) tokens.set(h.token, h.asset);
  const contracts: ReconciledContract[] = [];
  const totals = new Map<
    string,
    { held: bigint; onChain: bigint | null; deposits: number; reconciled: boolean | null }
  >();
  for (const c of chain.contracts) {
    const assets: ReconciledAsset[] = [];
    for (const [token, asset] of [...tokens].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const h = held.find((x) => x.contract === c.address && x.token === token);
      let onChain: bigint | null = null;
      if (block !== null && rpcError === null) {
        try {
          onChain = await chain.tokenBalance(token, c.address, block);
        } catch (err) {
          fail(err);
        }
      }
      const heldAmount = BigInt(h?.amount ?? "0");
      const ex = exits.find((x) => x.contract === c.address && x.token === token);
      const cr = credits.get(`${c.address}:${token}`);
      const a: ReconciledAsset = {
        asset,
        token,
        held: block === null ? null : heldAmount.toString(),
        deposits: block === null ? null : (h?.deposits ?? 0),
        on_chain: onChain === null ? null : onChain.toString(),
        difference: onChain === null ? null : (onChain - heldAmount).toString(),
        reconciled: onChain === null ? null : onChain >= heldAmount,
        exited_slots: ex?.slots ?? 0,
        exited_amount: ex?.amount ?? "0",
        credits_withdrawn: (cr?.withdrawn ?? 0n).toString(),
        credits_outstanding: ((cr?.credited ?? 0n) - (cr?.withdrawn ?? 0n)).toString(),
      };
      assets.push(a);
      const t = totals.get(token) ?? { held: 0n, onChain: 0n, deposits: 0, reconciled: true };
      totals.set(token, {
        held: t.held + heldAmount,
        onChain: t.onChain === null || onChain === null ? null : t.onChain + onChain,
        deposits: t.deposits + (h?.deposits ?? 0),
        reconciled: t.reconciled === null || a.reconciled === null ? null : t.reconciled && a.reconciled,
      });
    }
    contracts.push({
      address: c.address,
      version: c.version,
      current: c.current,
      reconciled: assets.some((a) => a.reconciled === null) ? null : assets.every((a) => a.reconciled),
      assets,
    });
  }
  // Per token over every contract: reconciled only when each contract covers its own deposits.
  const assets: ReconciledAsset[] = [...tokens]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([token, asset]) => {
      const t = totals.get(token)!;
      const per = contracts.flatMap((c) => c.assets.filter((a) => a.token === token));
      const sum = (k: "exited_amount" | "credits_withdrawn" | "credits_outstanding") =>
        per.reduce((s, a) => s + BigInt(a[k]), 0n).toString();
      return {
        asset,
        token,
        held: block === null ? null : t.held.toString(),
        deposits: block === null ? null : t.deposits,
        on_chain: t.onChain === null || rpcError !== null ? null : t.onChain.toString(),
        difference: t.onChain === null || rpcError !== null ? null : (t.onChain - t.held).toString(),
        reconciled: rpcError !== null ? null : t.reconciled,
        exited_slots: per.reduce((s, a) => s + a.exited_slots, 0),
        exited_amount: sum("exited_amount"),
        credits_withdrawn: sum("credits_withdrawn"),
        credits_outstanding: sum("credits_outstanding"),
      };
    });
  const nowSec = Math.floor(now.getTime() / 1000);
  return {
    enabled: true as const,
    off_reason: null,
    rpc: rpcError === null ? ("ok" as const) : ("unavailable" as const),
    ...(rpcError === null ? {} : { rpc_error: rpcError }),
    note: "per contract: held = accepted deposits at or below block_number without a mined payout and not taken back by their funder (exited); reconciled = on_chain ≥ held; difference = on_chain − held (pull credits not withdrawn, rejected deposits awaiting their funder, direct transfers). assets: the sum over contracts, reconciled only when every contract is",
    chain_id: chain.chainId,
    escrow_contract: chain.escrow,
    block_number: block,
    as_of: asOf,
    assets,
    contracts,
    governance: {
      pending: await pendingGovernance(deps, chain.chainId, nowSec),
      recent: await recentGovernance(deps, chain.chainId),
    },
  };
}

/** Deposits whose funder took the slot back, per contract and token. */
async function exitedSlots(deps: Deps, chainId: number, current: string) {
  const contract = sql<string>`coalesce(${escrowDeposits.escrowAddress}, ${addressLiteral(current)})`;
  return deps.database.db
    .select({
      contract,
      token: escrowDeposits.token,
      slots: sql<number>`count(*)::int`,
      amount: sql<string>`coalesce(sum(${escrowDeposits.amount}), 0)::text`,
    })
    .from(escrowDeposits)
    .where(and(eq(escrowDeposits.chainId, chainId), isNotNull(escrowDeposits.exitedBy)))
    .groupBy(contract, escrowDeposits.token);
}

/** Σ Credited and Σ Withdrawn per contract and token (pull credits, from the indexed events). */
async function creditTotals(deps: Deps, chainId: number) {
  const rows = await deps.database.db
    .select({
      contract: chainEvents.contract,
      token: sql<string>`lower(${chainEvents.args}->>'token')`,
      name: chainEvents.name,
      amount: sql<string>`coalesce(sum((${chainEvents.args}->>'amount')::numeric), 0)::text`,
    })
    .from(chainEvents)
    .where(and(eq(chainEvents.chainId, chainId), inArray(chainEvents.name, ["Credited", "Withdrawn"])))
    .groupBy(chainEvents.contract, sql`lower(${chainEvents.args}->>'token')`, chainEvents.name);
  const out = new Map<string, { credited: bigint; withdrawn: bigint }>();
  for (const r of rows) {
    const k = `${r.contract}:${r.token}`;
    const e = out.get(k) ?? { credited: 0n, withdrawn: 0n };
    if (r.name === "Credited") e.credited += BigInt(r.amount);
    else e.withdrawn += BigInt(r.amount);
    out.set(k, e);
  }
  return out;
}

export interface ReconciledAsset {
  asset: string;
  token: string;
  held: string | null;
  deposits: number | null;
  on_chain: string | null;
  difference: string | null;
  reconciled: boolean | null;
  /** Deposits their funder took back (SelfRefunded, Reclaimed): not held, not a shortfall. */
  exited_slots: number;
  exited_amount: string;
  /** Pull credits withdrawn, and credited but not withdrawn yet (part of a positive difference). */
  credits_withdrawn: string;
  credits_outstanding: string;
}

export interface ReconciledContract {
  address: string;
  version: string;
  current: boolean;
  reconciled: boolean | null;
  assets: ReconciledAsset[];
}
