import { and, eq, sql } from "drizzle-orm";
import { chainPayouts } from "../../db/schema/index";
import type { BaseChain } from "../../lib/base-chain";
import type { Ctx } from "../../lib/context";
import type { PromText } from "../../lib/metrics";
import { governanceCounts, pendingGovernance } from "../governance";
import { railStatus } from "../rail";
import { custodyAlertCounts } from "../custody";
import { baseReconciliation } from "./escrow.reconcile";

// The base rail's part of GET /metrics (docs/operations.md "Metrics"; docs/base-rail.md "Exits
// and governance"): failed payouts by reason, the resolver's gas balance, the shortfall per
// contract, governance events by name and pending governance changes, the rail's availability.
// Database gauges are global; the gas balance and the shortfall read the chain (best-effort: an
// RPC outage leaves them out of the scrape rather than failing it).

export async function renderEscrowMetrics(ctx: Ctx, out: PromText): Promise<void> {
  const { deps } = ctx;
  const chain = deps.chain;
  if (!chain) return;
  const chainId = String(chain.chainId);
  const rail = railStatus(deps);
  out.family("oabp_base_rail_available", "gauge", "1 while this process can use the base rail (reason when not)");
  out.sample("oabp_base_rail_available", { chain_id: chainId, reason: rail?.reason ?? "" }, rail?.available ? 1 : 0);
  await payoutGauges(ctx, out, chain);
  await shortfallGauge(ctx, out, chainId);
  await governanceGauges(ctx, out, chain.chainId);
  await custodyGauges(ctx, out, chainId);
}

/**
 * Custody alerts by kind (docs/custody.md; alert rule in docs/runbooks.md "Custody alert"): every
 * one ever raised (a counter: alert on any increase) and the open ones.
 */
async function custodyGauges({ deps }: Ctx, out: PromText, chainId: string): Promise<void> {
  const counts = await custodyAlertCounts(deps);
  out.family(
    "oabp_custody_alerts_total",
    "counter",
    "Escrow movements or proposals no signed decision explains, by kind",
  );
  for (const c of counts) out.sample("oabp_custody_alerts_total", { chain_id: chainId, kind: c.kind }, c.total);
  out.family("oabp_custody_alerts_open", "gauge", "Custody alerts not resolved yet, by kind");
  for (const c of counts) out.sample("oabp_custody_alerts_open", { chain_id: chainId, kind: c.kind }, c.open);
}

/** Failed payouts by reason (the database), and the resolver's gas balance (the chain). */
async function payoutGauges({ deps }: Ctx, out: PromText, chain: BaseChain): Promise<void> {
  const chainId = String(chain.chainId);
  const failed = await deps.database.db
    .select({ reason: chainPayouts.reason, n: sql<number>`count(*)::int` })
    .from(chainPayouts)
    .where(and(eq(chainPayouts.chainId, chain.chainId), eq(chainPayouts.state, "failed")))
    .groupBy(chainPayouts.reason);
  out.family("oabp_payouts_failed", "gauge", "Payouts in state failed, by reason (global: the database)");
  for (const f of failed) out.sample("oabp_payouts_failed", { chain_id: chainId, reason: f.reason ?? "" }, f.n);
  const gas = await chain.balance(chain.resolver).catch(() => null);
  if (gas === null) return;
  out.family("oabp_resolver_gas_balance_wei", "gauge", "The resolver's ETH balance (read from the chain)");
  out.sample("oabp_resolver_gas_balance_wei", { chain_id: chainId, resolver: chain.resolver }, gas);
}

/** held − on_chain per contract and token, from the reconciliation. */
async function shortfallGauge(ctx: Ctx, out: PromText, chainId: string): Promise<void> {
  const rec = await baseReconciliation(ctx).catch(() => null);
  if (!rec?.enabled) return;
  out.family(
    "oabp_escrow_shortfall",
    "gauge",
    "held − on_chain per contract and token when positive (0: reconciled), at the confirmed head",
  );
  for (const c of rec.contracts)
    for (const a of c.assets)
      if (a.difference !== null)
        out.sample(
          "oabp_escrow_shortfall",
          { chain_id: chainId, contract: c.address, token: a.token },
          BigInt(a.difference) < 0n ? -BigInt(a.difference) : 0n,
        );
}

/** Governance events by name, and the changes proposed and not in effect yet. */
async function governanceGauges(ctx: Ctx, out: PromText, chain: number): Promise<void> {
  const chainId = String(chain);
  const counts = await governanceCounts(ctx.deps);
  out.family("oabp_escrow_governance_events_total", "counter", "Governance events indexed, by contract and name");
  for (const g of counts)
    out.sample("oabp_escrow_governance_events_total", { chain_id: chainId, contract: g.contract, event: g.name }, g.n);
  const pending = await pendingGovernance(ctx, { chainId: chain });
  const byKind = new Map<string, { contract: string; kind: string; n: number }>();
  for (const p of pending) {
    const k = `${p.contract}|${p.kind}`;
    byKind.set(k, { contract: p.contract, kind: p.kind, n: (byKind.get(k)?.n ?? 0) + 1 });
  }
  out.family("oabp_escrow_governance_pending", "gauge", "Governance changes proposed and not in effect yet");
  for (const { contract, kind, n } of byKind.values())
    out.sample("oabp_escrow_governance_pending", { chain_id: chainId, contract, kind }, n);
}
