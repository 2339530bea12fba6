import { asc, eq } from "drizzle-orm";
import { agentBlocklist, BLOCKLIST_MAX } from "../../db/schema/index";
import { normalizeAddress } from "../../lib/address";
import { agentOf, type Ctx, dbOf, withTx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { parseAgentId } from "../../lib/agent-id";
import type { BlocklistInput, BlocklistWire } from "./agents.schemas";

// A creator's standing block-list, applied to every mission it posts at claim
// and submission (missions.eligibility.ts). Private: only its owner reads or writes it.

function ownerOnly(ctx: Ctx, agentId: string): string {
  const caller = agentOf(ctx);
  if (parseAgentId(agentId) !== caller)
    throw new AppError("FORBIDDEN", "a block-list is read and written by its owner only", { reason: "not_owner" });
  return caller;
}

export async function getBlocklist(ctx: Ctx, { agentId }: { agentId: string }): Promise<BlocklistWire> {
  const owner = ownerOnly(ctx, agentId);
  const max = BLOCKLIST_MAX;
  const rows = await dbOf(ctx)
    .select({ blocked: agentBlocklist.blocked })
    .from(agentBlocklist)
    .where(eq(agentBlocklist.owner, owner))
    .orderBy(asc(agentBlocklist.blocked))
    .limit(Math.max(max, 1) + 1000); // bounded even if the setting was lowered after writes
  return { agent_id: owner, addresses: rows.map((r) => r.blocked), max };
}

/**
 * PUT /agents/{id}/blocklist: replaces the whole list. Locking: one transaction deletes the
 * owner's rows and inserts the new ones; concurrent PUTs serialise on the (owner, blocked)
 * primary key, the last one wins whole.
 */
export async function putBlocklist(
  ctx: Ctx,
  { agentId, list }: { agentId: string; list: BlocklistInput },
): Promise<BlocklistWire> {
  const owner = ownerOnly(ctx, agentId);
  const max = BLOCKLIST_MAX;
  const addresses = new Set<string>();
  for (const a of list.addresses) {
    const n = normalizeAddress(a);
    if (!n) throw new AppError("INVALID_PARAMETER", `${a} is not a valid address (EIP-55)`, { field: "addresses" });
    if (n === owner)
      throw new AppError("UNPROCESSABLE", "an agent cannot block itself", {
        field: "addresses",
        reason: "self_blocked",
      });
    addresses.add(n);
  }
  if (addresses.size > max)
    throw new AppError("UNPROCESSABLE", `a block-list holds at most ${max} addresses`, {
      field: "addresses",
      reason: "list_too_long",
      max,
    });
  await withTx(ctx, async (tx) => {
    await tx.delete(agentBlocklist).where(eq(agentBlocklist.owner, owner));
    if (addresses.size > 0)
      await tx.insert(agentBlocklist).values([...addresses].map((blocked) => ({ owner, blocked, createdAt: ctx.now })));
  });
  return getBlocklist(ctx, { agentId: owner });
}
