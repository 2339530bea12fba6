import { and, count, desc, eq, isNull, lt } from "drizzle-orm";
import { assertNotSuspended } from "../../db/suspension";
import { webhookDeliveries, webhookEvents, webhookSubscriptions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { agentOf, dbOf, withTx, type Ctx } from "../../lib/context";
import { normalizeAddress } from "../../lib/address";
import { registrableDomain } from "../../lib/host-key";
import { AppError } from "../../lib/errors";
import { isId, newId } from "../../lib/ids";
import { newWebhookSecret } from "../../lib/webhook-signature";
import { touchAgent } from "../../db/touch-agent";
import type { EventType } from "../../lib/webhook-events";
import type { CreateWebhookInput, DeliveryWire, WebhookFiltersInput, WebhookWire } from "./webhooks.schemas";
import { checkWebhookUrl } from "./webhooks.url";
import { decodeIdCursor, keysetPage, keysetPageBy } from "../../lib/cursor";

/** Webhook subscriptions one agent may hold (disabled ones count until deleted). */
const WEBHOOK_MAX_PER_AGENT = 10;

type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
/** REST webhooks only: an A2A push config (a2a_task_id set) is served by the A2A binding. */
const REST = isNull(webhookSubscriptions.a2aTaskId);

function webhookToWire(s: SubscriptionRow): WebhookWire {
  const filters: WebhookFiltersInput = {};
  if (s.filterMissionIds) filters.mission_id = s.filterMissionIds;
  if (s.filterVerificationTypes)
    filters.verification_type = s.filterVerificationTypes as NonNullable<WebhookFiltersInput["verification_type"]>;
  if (s.filterTags) filters.tags = s.filterTags;
  if (s.filterCreators) filters.creator = s.filterCreators;
  return {
    id: s.id,
    url: s.url,
    events: s.events as EventType[],
    filters,
    status: s.status,
    disabled_reason: s.disabledReason as WebhookWire["disabled_reason"],
    disabled_at: s.disabledAt?.toISOString() ?? null,
    failing_since: s.failingSince?.toISOString() ?? null,
    verified_at: s.verifiedAt?.toISOString() ?? null,
    consecutive_failures: s.consecutiveFailures,
    last_success_at: s.lastSuccessAt?.toISOString() ?? null,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

/** OABP_WEBHOOKS_ENABLED=false: the routes stay documented but answer 503. */
function requireWebhooksEnabled(deps: Deps): void {
  if (!deps.config.webhooksEnabled)
    throw new AppError("SERVICE_UNAVAILABLE", "webhooks are disabled on this server", { reason: "webhooks_disabled" });
}

/**
 * POST /webhooks. The URL is checked for what is knowable without DNS (webhooks.url.ts); the
 * secret is returned in this answer only. Locking: the owner's agent row (the upsert in
 * touchAgent holds it to commit) serialises concurrent creations, so the per-agent cap holds.
 */
export async function createWebhook(ctx: Ctx, input: CreateWebhookInput): Promise<WebhookWire & { secret: string }> {
  const { deps, now } = ctx;
  requireWebhooksEnabled(deps);
  const owner = agentOf(ctx);
  await assertNotSuspended(deps.database.db, owner, now); // docs/moderation.md "Suspension"
  const verdict = checkWebhookUrl(input.url, deps.fetcher);
  if (!verdict.ok) {
    throw new AppError("UNPROCESSABLE", `url refused: ${verdict.reason}`, {
      field: "url",
      reason: verdict.reason,
      ...(verdict.detail !== undefined && { detail: verdict.detail }),
    });
  }
  const f = input.filters ?? {};
  let creators: string[] | undefined;
  if (f.creator) {
    creators = f.creator.map((c) => normalizeAddress(c) ?? "");
    if (creators.includes(""))
      throw new AppError("INVALID_PARAMETER", "filters.creator: not a valid address (bad EIP-55 checksum)", {
        field: "filters.creator",
      });
  }
  const uniq = <T>(xs: T[] | undefined) => (xs ? [...new Set(xs)] : null);
  const max = WEBHOOK_MAX_PER_AGENT;
  return withTx(ctx, async (tx) => {
    await touchAgent(tx, owner, now);
    const [n] = await tx
      .select({ n: count() })
      .from(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.owner, owner), REST));
    if (Number(n?.n ?? 0) >= max) {
      throw new AppError("CONFLICT", `at most ${max} webhooks per agent; delete one first`, {
        reason: "webhook_limit",
        limit: max,
      });
    }
    const secret = newWebhookSecret();
    const [row] = await tx
      .insert(webhookSubscriptions)
      .values({
        id: newId("whk", now.getTime()),
        owner,
        url: verdict.url,
        events: [...new Set(input.events)],
        filterMissionIds: uniq(f.mission_id),
        filterVerificationTypes: uniq(f.verification_type),
        filterTags: uniq(f.tags),
        filterCreators: uniq(creators),
        secret,
        // Verified by the job before any real delivery (webhooks.verify.ts).
        status: "pending_verification",
        // The cap's key: the registrable domain (docs/abuse.md "Resolver"), as for checks.
        host: registrableDomain(new URL(verdict.url).hostname),
        nextVerifyAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { ...webhookToWire(row!), secret };
  });
}

/** The caller's subscription, or 404 — also for someone else's (its existence is not revealed). */
async function ownSubscription(ctx: Ctx, owner: string, id: string): Promise<SubscriptionRow> {
  const [row] = isId("whk", id)
    ? await dbOf(ctx)
        .select()
        .from(webhookSubscriptions)
        .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.owner, owner), REST))
    : [];
  if (!row) throw new AppError("NOT_FOUND", `webhook ${id} not found`);
  return row;
}

export async function getWebhook(ctx: Ctx, { id }: { id: string }): Promise<WebhookWire> {
  requireWebhooksEnabled(ctx.deps);
  return webhookToWire(await ownSubscription(ctx, agentOf(ctx), id));
}

/** GET /webhooks: the caller's subscriptions, newest first (keyset on the time-ordered id). */
export async function listWebhooks(ctx: Ctx, q: { limit: number; cursor?: string | undefined }) {
  requireWebhooksEnabled(ctx.deps);
  const owner = agentOf(ctx);
  const before = decodeIdCursor(q.cursor, "whk");
  const rows = await dbOf(ctx)
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.owner, owner), REST, before ? lt(webhookSubscriptions.id, before) : undefined))
    .orderBy(desc(webhookSubscriptions.id))
    .limit(q.limit + 1);
  const { page, next_cursor } = keysetPage(rows, q.limit);
  return { webhooks: page.map(webhookToWire), next_cursor };
}

/**
 * DELETE /webhooks/{id}: the subscription and its deliveries, in one transaction. An attempt
 * already in flight still completes; recording it then matches nothing.
 */
export async function deleteWebhook(ctx: Ctx, { id }: { id: string }): Promise<void> {
  requireWebhooksEnabled(ctx.deps);
  const owner = agentOf(ctx);
  await ownSubscription(ctx, owner, id);
  await withTx(ctx, async (tx) => {
    const gone = await tx
      .delete(webhookSubscriptions)
      .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.owner, owner)))
      .returning({ id: webhookSubscriptions.id });
    if (gone.length === 0) throw new AppError("NOT_FOUND", `webhook ${id} not found`);
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, id));
  });
}

/** GET /webhooks/{id}/deliveries: newest event first, keyset on the event id; never the secret. */
export async function listDeliveries(
  ctx: Ctx,
  { id, ...q }: { id: string; limit: number; cursor?: string | undefined },
) {
  requireWebhooksEnabled(ctx.deps);
  await ownSubscription(ctx, agentOf(ctx), id);
  const before = decodeIdCursor(q.cursor, "evt");
  const d = webhookDeliveries;
  const rows = await dbOf(ctx)
    .select({ d, type: webhookEvents.type })
    .from(d)
    .innerJoin(webhookEvents, eq(webhookEvents.id, d.eventId))
    .where(and(eq(d.subscriptionId, id), before ? lt(d.eventId, before) : undefined))
    .orderBy(desc(d.eventId))
    .limit(q.limit + 1);
  const { page, next_cursor } = keysetPageBy(rows, q.limit, (r) => r.d.eventId);
  const deliveries: DeliveryWire[] = page.map(({ d: r, type }) => ({
    event_id: r.eventId,
    event_type: type as DeliveryWire["event_type"],
    status: r.status,
    attempt_count: r.attemptCount,
    next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    last_status_code: r.lastStatusCode,
    last_error: r.lastError,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    delivered_at: r.deliveredAt?.toISOString() ?? null,
    attempts: r.attempts,
  }));
  return {
    webhook_id: id,
    deliveries,
    next_cursor,
  };
}
