import { and, eq, inArray, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { chainEvents, chainPayouts, escrowDeposits, missions } from "../../db/schema/index";
import { pendingGovernance, recentGovernance } from "../governance";
import { openCustodyAlerts } from "../custody";
import { addressLiteral } from "./escrow.wire";
import type { Deps } from "../../deps";
import type { BaseChain } from "../../lib/base-chain";
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

type BaseReconciliation = Awaited<ReturnType<typeof read>>;

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
  if (!chain) return railOff(deps, now);
  const rpc = new RpcErrors();
  const block = await rpc.attempt(async () => (await chain.heads()).confirmed);
  const held = block === null ? [] : await heldAt(deps, chain, block);
  const exits = await exitedSlots(deps, chain.chainId, chain.escrow);
  const credits = await creditTotals(deps, chain.chainId);
  const tokens = tokensOf(deps, held);
  const contracts: ReconciledContract[] = [];
  for (const c of chain.contracts) {
    const assets: ReconciledAsset[] = [];
    for (const [token, asset] of tokens) {
      const onChain =
        block === null || rpc.error !== null
          ? null
          : await rpc.attempt(() => chain.tokenBalance(token, c.address, block));
      const h = held.find((x) => x.contract === c.address && x.token === token);
      const ex = exits.find((x) => x.contract === c.address && x.token === token);
      assets.push(assetRow({ asset, token, block, h, onChain, ex, cr: credits.get(`${c.address}:${token}`) }));
    }
    contracts.push({
      address: c.address,
      version: c.version,
      current: c.current,
      reconciled: assets.some((a) => a.reconciled === null) ? null : assets.every((a) => a.reconciled),
      assets,
    });
  }
  // An open custody alert means the contract moved money no decision explains: never reconciled.
  const alerts = await openCustodyAlerts(deps, chain.chainId);
  for (const c of contracts)
    if (alerts.some((a) => a.contract === c.address)) {
      c.reconciled = false;
      for (const a of c.assets) a.reconciled = false;
    }
  return {
    enabled: true as const,
    off_reason: null,
    rpc: rpc.error === null ? ("ok" as const) : ("unavailable" as const),
    ...(rpc.error === null ? {} : { rpc_error: rpc.error }),
    note: "per contract: held = accepted deposits at or below block_number without a mined payout and not taken back by their funder (exited); reconciled = on_chain ≥ held; difference = on_chain − held (pull credits not withdrawn, rejected deposits awaiting their funder, direct transfers). assets: the sum over contracts, reconciled only when every contract is",
    chain_id: chain.chainId,
    escrow_contract: chain.escrow,
    block_number: block,
    as_of: now.toISOString(),
    assets: tokens.map(([token, asset]) => overContracts({ asset, token }, block, rpc.error, contracts)),
    contracts,
    custody_alerts: alerts,
    governance: {
      pending: await pendingGovernance({ deps, now }, { chainId: chain.chainId }),
      recent: await recentGovernance({ deps }, { chainId: chain.chainId }),
    },
  };
}

/** The document when the base rail is off: nothing is reconciled, and it says why. */
function railOff(deps: Deps, now: Date) {
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
    as_of: now.toISOString(),
    assets: [] as ReconciledAsset[],
    contracts: [] as ReconciledContract[],
    custody_alerts: [] as Awaited<ReturnType<typeof openCustodyAlerts>>,
    governance: {
      pending: [] as Awaited<ReturnType<typeof pendingGovernance>>,
      recent: [] as Awaited<ReturnType<typeof recentGovernance>>,
    },
  };
}

/** The first RPC failure of one reading; every later chain read is skipped once there is one. */
class RpcErrors {
  error: string | null = null;
  async attempt<T>(read: () => Promise<T>): Promise<T | null> {
    try {
      return await read();
    } catch (err) {
      this.error = err instanceof Error ? (err.message.split("\n")[0] ?? "").slice(0, 200) : String(err);
      return null;
    }
  }
}

type Held = Awaited<ReturnType<typeof heldAt>>[number];

/** Accepted deposits at or below `block`, per contract and token, with no mined payout and not exited. */
function heldAt(deps: Deps, chain: BaseChain, block: number) {
  return depositTotals(deps.database.db, {
    chain,
    where: and(
      inArray(escrowDeposits.status, ["pending", "confirmed", "final"]),
      lte(escrowDeposits.blockNumber, block),
      // A slot its funder took back (SelfRefunded, Reclaimed) is no longer held (custody.exits.ts).
      sql`(${escrowDeposits.exitedBlock} is null or ${escrowDeposits.exitedBlock} > ${block})`,
      sql`not exists (select 1 from ${chainPayouts} p where p.deposit_id = ${escrowDeposits.id} and p.state in ('confirmed', 'final') and p.block_number <= ${block})`,
    ),
  });
}

/**
 * Σ amount and count of this chain's deposits matching `where`, per contract (a row without one is
 * the configured contract's) and token, with the token's asset: what the escrow holds in each.
 */
export function depositTotals(db: DbOrTx, { chain, where }: { chain: BaseChain; where: SQL | undefined }) {
  const contract = sql<string>`coalesce(${escrowDeposits.escrowAddress}, ${addressLiteral(chain.escrow)})`;
  return db
    .select({
      contract,
      asset: sql<string>`min(${missions.rewardAsset})`,
      token: escrowDeposits.token,
      amount: sql<string>`coalesce(sum(${escrowDeposits.amount}), 0)::text`,
      deposits: sql<number>`count(*)::int`,
    })
    .from(escrowDeposits)
    .innerJoin(missions, eq(missions.id, escrowDeposits.missionId))
    .where(and(eq(escrowDeposits.chainId, chain.chainId), where))
    .groupBy(contract, escrowDeposits.token);
}

/** Configured tokens on this chain, plus any token a deposit used, as [token, asset] sorted by token. */
function tokensOf(deps: Deps, held: Held[]): [string, string][] {
  const tokens = new Map<string, string>();
  for (const a of deps.config.assets) {
    const addr = a.addresses.base?.toLowerCase();
    if (addr) tokens.set(addr, a.symbol);
  }
  for (const h of held) if (!tokens.has(h.token)) tokens.set(h.token, h.asset);
  return [...tokens].sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** One token of one contract: held against its on-chain balance at `block`. */
function assetRow(input: {
  asset: string;
  token: string;
  block: number | null;
  h: Held | undefined;
  onChain: bigint | null;
  /** The slots taken back by their funder, and the pull credits, of this contract and token. */
  ex: { slots: number; amount: string } | undefined;
  cr: { credited: bigint; withdrawn: bigint } | undefined;
}): ReconciledAsset {
  const { asset, token, block, h, onChain } = input;
  const heldAmount = BigInt(h?.amount ?? "0");
  return {
    asset,
    token,
    ...(block === null ? { held: null, deposits: null } : { held: heldAmount.toString(), deposits: h?.deposits ?? 0 }),
    ...(onChain === null
      ? { on_chain: null, difference: null, reconciled: null }
      : {
          on_chain: onChain.toString(),
          difference: (onChain - heldAmount).toString(),
          reconciled: onChain >= heldAmount,
        }),
    ...exitAndCredits(input),
  };
}

/** The slots taken back by their funder, and the pull credits withdrawn and outstanding. */
function exitAndCredits({ ex, cr }: Parameters<typeof assetRow>[0]) {
  const credited = cr?.credited ?? 0n;
  const withdrawn = cr?.withdrawn ?? 0n;
  return {
    exited_slots: ex?.slots ?? 0,
    exited_amount: ex?.amount ?? "0",
    credits_withdrawn: withdrawn.toString(),
    credits_outstanding: (credited - withdrawn).toString(),
  };
}

/** One token over every contract: reconciled only when each contract covers its own deposits. */
function overContracts(
  id: { asset: string; token: string },
  block: number | null,
  rpcError: string | null,
  contracts: ReconciledContract[],
): ReconciledAsset {
  const per = contracts.flatMap((c) => c.assets.filter((a) => a.token === id.token));
  const sum = (k: "held" | "on_chain" | "exited_amount" | "credits_withdrawn" | "credits_outstanding") =>
    per.reduce((s, a) => s + BigInt(a[k] ?? "0"), 0n);
  const held = sum("held");
  const onChain = rpcError !== null || per.some((a) => a.on_chain === null) ? null : sum("on_chain");
  return {
    ...id,
    held: block === null ? null : held.toString(),
    deposits: block === null ? null : per.reduce((s, a) => s + (a.deposits ?? 0), 0),
    on_chain: onChain === null ? null : onChain.toString(),
    difference: onChain === null ? null : (onChain - held).toString(),
    reconciled: rpcError !== null || per.some((a) => a.reconciled === null) ? null : per.every((a) => a.reconciled),
    exited_slots: per.reduce((s, a) => s + a.exited_slots, 0),
    exited_amount: sum("exited_amount").toString(),
    credits_withdrawn: sum("credits_withdrawn").toString(),
    credits_outstanding: sum("credits_outstanding").toString(),
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

interface ReconciledAsset {
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

interface ReconciledContract {
  address: string;
  version: string;
  current: boolean;
  reconciled: boolean | null;
  assets: ReconciledAsset[];
}
