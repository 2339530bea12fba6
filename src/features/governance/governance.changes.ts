import { and, asc, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { chainEvents, chainPayouts } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { Ctx } from "../../lib/context";

// What a funder watches (docs/base-rail.md "Exits and governance"): the governance actions of
// every followed escrow contract, and the changes proposed but not in effect yet, with the time
// they take effect — the window in which a funder may still exit. Built from chain_events alone
// (the watcher indexes them at the confirmation depth), so it needs no RPC.

/** Exits and pull credits: indexed, but not governance. */
const NOT_GOVERNANCE = ["SelfRefunded", "Reclaimed", "Withdrawn", "Credited"];

/** A proposal (opened by `open`, its effect time in `at`), closed by any later event that `closes`. */
interface Rule {
  kind: string;
  open: string;
  at: string;
  /** Does `ev` (a later event of the same contract) close `p`? */
  closes(p: Args, ev: { name: string; args: Args }): boolean;
}
type Args = Record<string, unknown>;

const DEFAULT_ADMIN_ROLE = `0x${"00".repeat(32)}`;
const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/**
 * A proposal that any of `names` closes, whatever their arguments (a newer proposal replaces it),
 * or that a later event closes when `also` says so.
 */
const closedBy =
  (names: string[], also: Rule["closes"] = () => false): Rule["closes"] =>
  (p, ev) =>
    names.includes(ev.name) || also(p, ev);

/** The proposed resolver took office: activated, or granted a role (other than admin) directly. */
const resolverInstalled: Rule["closes"] = (p, ev) =>
  (ev.name === "ResolverActivated" && same(ev.args.resolver, p.resolver)) ||
  (ev.name === "RoleGranted" && same(ev.args.account, p.resolver) && !same(ev.args.role, DEFAULT_ADMIN_ROLE));

/** The scheduled admin took office: granted the admin role. */
const adminInstalled: Rule["closes"] = (p, ev) =>
  ev.name === "RoleGranted" && same(ev.args.role, DEFAULT_ADMIN_ROLE) && same(ev.args.account, p.newAdmin);

const RULES: Rule[] = [
  {
    kind: "resolver",
    open: "ResolverProposed",
    at: "activeFrom",
    closes: closedBy(["ResolverProposed", "ResolverProposalCancelled"], resolverInstalled),
  },
  {
    kind: "guardian",
    open: "GuardianProposed",
    at: "activeFrom",
    closes: closedBy(["GuardianProposed", "GuardianProposalCancelled", "GuardianActivated"]),
  },
  {
    kind: "admin_transfer",
    open: "DefaultAdminTransferScheduled",
    at: "acceptSchedule",
    closes: closedBy(["DefaultAdminTransferScheduled", "DefaultAdminTransferCanceled"], adminInstalled),
  },
  {
    kind: "admin_delay",
    open: "DefaultAdminDelayChangeScheduled",
    at: "effectSchedule",
    closes: closedBy(["DefaultAdminDelayChangeScheduled", "DefaultAdminDelayChangeCanceled"]),
  },
  {
    kind: "fee_cap",
    open: "FeeCapProposed",
    at: "activeFrom",
    closes: closedBy(["FeeCapProposed", "FeeCapChanged", "FeeCapProposalCancelled"]),
  },
  {
    kind: "release",
    open: "ReleaseProposed",
    at: "executableAt",
    closes: (p, ev) =>
      (ev.name === "ReleaseCancelled" || ev.name === "ReleaseProposed") &&
      same(ev.args.missionKey, p.missionKey) &&
      same(ev.args.funder, p.funder),
  },
];
const OPENERS = new Map(RULES.map((r) => [r.open, r]));

export interface PendingChange {
  contract: string;
  kind: string;
  event: string;
  args: Args;
  proposed_block: number;
  tx_hash: string;
  /** Unix seconds from which it may take effect (the funder's exit window ends then). */
  effective_at: number | null;
  effective_at_iso: string | null;
}

/** Proposals not cancelled, replaced or carried out; an admin-delay change stays pending until its time. */
export async function pendingGovernance(
  { deps, now }: Pick<Ctx, "deps" | "now">,
  { chainId }: { chainId: number },
): Promise<PendingChange[]> {
  const nowSec = Math.floor(now.getTime() / 1000);
  const rows = await deps.database.db
    .select()
    .from(chainEvents)
    .where(and(eq(chainEvents.chainId, chainId), notInArray(chainEvents.name, NOT_GOVERNANCE)))
    .orderBy(asc(chainEvents.blockNumber), asc(chainEvents.logIndex));
  const pending: PendingChange[] = [];
  for (const { rule, row } of stillOpen(rows)) {
    const effective = effectiveAt(row.args[rule.at]);
    if (rule.kind === "admin_delay" && effective !== null && effective <= nowSec) continue; // in effect now
    if (rule.kind === "release" && (await releaseMined(deps, chainId, row.args))) continue;
    pending.push({
      contract: row.contract,
      kind: rule.kind,
      event: row.name,
      args: row.args,
      proposed_block: row.blockNumber,
      tx_hash: row.txHash,
      effective_at: effective,
      effective_at_iso: effective === null ? null : new Date(effective * 1000).toISOString(),
    });
  }
  return pending;
}

type EventRow = typeof chainEvents.$inferSelect;

/** Proposals (in chain order) that no later event of the same contract closed. */
function stillOpen(rows: EventRow[]): { rule: Rule; row: EventRow }[] {
  let open: { rule: Rule; row: EventRow }[] = [];
  for (const row of rows) {
    const ev = { name: row.name, args: row.args };
    open = open.filter((o) => !(o.row.contract === row.contract && o.rule.closes(o.row.args, ev)));
    const rule = OPENERS.get(row.name);
    if (rule) open.push({ rule, row });
  }
  return open;
}

/** A proposal's effect time (unix seconds), or null when it names none. */
function effectiveAt(value: unknown): number | null {
  const at = Number(value ?? NaN);
  return Number.isFinite(at) && at > 0 ? at : null;
}

/** A proposed release carried out: the slot's release is mined. */
async function releaseMined(deps: Deps, chainId: number, args: Args): Promise<boolean> {
  const [hit] = await deps.database.db
    .select({ one: sql<number>`1` })
    .from(chainPayouts)
    .where(
      and(
        eq(chainPayouts.chainId, chainId),
        eq(chainPayouts.missionKey, String(args.missionKey).toLowerCase()),
        eq(chainPayouts.funder, String(args.funder).toLowerCase()),
        inArray(chainPayouts.state, ["confirmed", "final"]),
      ),
    )
    .limit(1);
  return Boolean(hit);
}

/** The latest governance actions of every followed contract, newest first. */
export async function recentGovernance(
  { deps }: Pick<Ctx, "deps">,
  { chainId, limit = 20 }: { chainId: number; limit?: number },
) {
  const rows = await deps.database.db
    .select()
    .from(chainEvents)
    .where(and(eq(chainEvents.chainId, chainId), notInArray(chainEvents.name, NOT_GOVERNANCE)))
    .orderBy(desc(chainEvents.blockNumber), desc(chainEvents.logIndex))
    .limit(limit);
  return rows.map((r) => ({
    contract: r.contract,
    event: r.name,
    args: r.args,
    block_number: r.blockNumber,
    tx_hash: r.txHash,
    at: r.blockTime === null ? null : new Date(r.blockTime * 1000).toISOString(),
  }));
}

/** Governance events by name (GET /metrics). */
export async function governanceCounts(deps: Deps) {
  return deps.database.db
    .select({ contract: chainEvents.contract, name: chainEvents.name, n: sql<number>`count(*)::int` })
    .from(chainEvents)
    .where(notInArray(chainEvents.name, NOT_GOVERNANCE))
    .groupBy(chainEvents.contract, chainEvents.name);
}
