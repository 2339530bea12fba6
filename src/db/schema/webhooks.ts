import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps, equals, isSet } from "./types";
import { DELIVERY_STATUSES, WEBHOOK_STATUSES } from "../vocabulary";

// Webhooks (docs/design.md "Discovery": Standard Webhooks headers, transactional outbox, retries).

/** One attempt of one delivery, as listed by GET /webhooks/{id}/deliveries (never the secret). */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

// A subscription: where to POST which events. The secret is kept in clear because every
// delivery is signed with it (HMAC); it is shown to its owner once, at creation.
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: text("id").primaryKey(), // whk_<ulid>: time-ordered, the pagination key
    owner: text("owner").notNull(), // lowercase 0x address
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    // Filters: null = any. An event matches when every non-null filter holds (see webhooks.outbox.ts).
    filterMissionIds: text("filter_mission_ids").array(),
    filterVerificationTypes: text("filter_verification_types").array(),
    filterTags: text("filter_tags").array(),
    filterCreators: text("filter_creators").array(),
    secret: text("secret").notNull(),
    status: text("status", { enum: WEBHOOK_STATUSES }).notNull(),
    disabledReason: text("disabled_reason"), // endpoint_gone | failing_endpoint | verification_failed
    /** The URL's host name (lower case): the per-destination concurrency cap counts by it. */
    host: text("host").notNull().default(""),
    /** When the endpoint echoed the signed challenge (docs/abuse-edge.md "Webhooks"); null until then. */
    verifiedAt: ts("verified_at"),
    verifyAttempts: integer("verify_attempts").notNull().default(0),
    /** pending_verification: when the next challenge is due (a claim pushes it out by a lease). */
    nextVerifyAt: ts("next_verify_at"),
    /** Failed attempts since the last success: N in a row disable the subscription. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledAt: ts("disabled_at"),
    // Start of the current run of failed attempts (null after any success): the auto-disable clock.
    failingSince: ts("failing_since"),
    lastSuccessAt: ts("last_success_at"),
    /**
     * Set for an A2A push notification config (docs/a2a.md "Push notifications"): the task
     * (submission) it follows; null for a REST webhook. Such a row is never a REST webhook.
     */
    a2aTaskId: text("a2a_task_id"),
    /** The config's token, sent as X-A2A-Notification-Token (A2A §4.3.1). */
    a2aToken: text("a2a_token"),
    /** The config's AuthenticationInfo (A2A §4.3.2): sent as `Authorization: <scheme> <credentials>`. */
    a2aAuth: jsonb("a2a_auth").$type<{ scheme: string; credentials: string }>(),
    ...timestamps(),
  },
  (t) => [
    index("webhook_subscriptions_owner_idx").on(t.owner, t.id),
    // Fan-out reads the active subscriptions that existed when an event happened.
    index("webhook_subscriptions_active_idx").on(t.createdAt).where(equals(t.status, "active")),
    index("webhook_subscriptions_a2a_task_idx").on(t.a2aTaskId).where(isSet(t.a2aTaskId)),
    index("webhook_subscriptions_verify_idx").on(t.nextVerifyAt).where(equals(t.status, "pending_verification")),
  ],
);

// The transactional outbox: a row is inserted in the same transaction as the state change it
// reports, so an event exists iff that change committed. `body` is frozen at fan-out, so every
// retry to every endpoint sends the same bytes.
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(), // evt_<ulid>: time-ordered; the webhook-id of its deliveries
    type: text("type").notNull(),
    occurredAt: ts("occurred_at").notNull(),
    // What filters match on (copied from the mission when the event is emitted).
    missionId: text("mission_id").notNull(),
    creator: text("creator").notNull(),
    verificationType: text("verification_type").notNull(),
    tags: text("tags").array().notNull().default([]),
    data: text("data").notNull(), // the event's `data` object, JSON text in the emitter's key order
    body: text("body"), // the exact delivered JSON envelope; set at fan-out
    fannedOutAt: ts("fanned_out_at"),
    // Delivery order of the live streams (features/events): assigned after commit, by one
    // sequencer at a time, from webhook_events_seq; null until then. Commit order, not id order.
    seq: bigint("seq", { mode: "bigint" }),
  },
  (t) => [
    uniqueIndex("webhook_events_seq_idx").on(t.seq),
    index("webhook_events_unsequenced_idx")
      .on(t.id)
      .where(sql`${t.seq} is null`),
    index("webhook_events_outbox_idx")
      .on(t.id)
      .where(sql`${t.fannedOutAt} is null`),
    index("webhook_events_occurred_idx").on(t.occurredAt),
    // A claimed mission's events from an inbox cursor (features/events/events.inbox.ts).
    index("webhook_events_mission_seq_idx").on(t.missionId, t.seq).where(isSet(t.seq)),
  ],
);

// The inbox's index (docs/events.md "Inbox"): one row per party of a numbered event — creator,
// submitter, payee, winners — written by the sequencer with the event's seq, so an agent's inbox
// page is an index range scan from its cursor, never a scan of everyone's events.
export const eventParties = pgTable(
  "event_parties",
  {
    agent: text("agent").notNull(),
    seq: bigint("seq", { mode: "bigint" }).notNull(),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.agent, t.seq] }), index("event_parties_event_idx").on(t.eventId)],
);

/** Numbers committed events for the live streams (features/events/events.sequence.ts). */
export const webhookEventsSeq = pgSequence("webhook_events_seq");

// One event to one subscription. The (subscription, event) key makes fan-out idempotent; the
// delivery's webhook-id is its event id, so every retry carries the same one.
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    subscriptionId: text("subscription_id").notNull(),
    eventId: text("event_id").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    // Pending: when the next attempt is due (a claim pushes it out by a lease). Null once final.
    nextAttemptAt: ts("next_attempt_at"),
    attempts: jsonb("attempts").$type<DeliveryAttempt[]>().notNull().default([]),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    ...timestamps(),
    deliveredAt: ts("delivered_at"),
    /** Set by a claim, cleared by the record: in-flight attempts per host, counted across instances. */
    inFlightUntil: ts("in_flight_until"),
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.eventId] }),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(equals(t.status, "pending")),
    index("webhook_deliveries_event_idx").on(t.eventId),
    // Fair claims probe each subscription's oldest due deliveries (webhooks.claim.ts).
    index("webhook_deliveries_sub_due_idx").on(t.subscriptionId, t.nextAttemptAt).where(equals(t.status, "pending")),
    index("webhook_deliveries_in_flight_idx").on(t.inFlightUntil).where(isSet(t.inFlightUntil)),
    // The purge of finished deliveries past the retention (src/jobs/webhooks.ts).
    index("webhook_deliveries_finished_idx")
      .on(t.updatedAt)
      .where(sql`${t.status} <> 'pending'`),
  ],
);
