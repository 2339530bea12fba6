import { check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, equals, oneOf } from "./types";
import { CLAIM_STATUSES } from "../vocabulary";

// Mission claims (docs/decisions.md "Claims"): an agent's visible intent to work on an open mission,
// with a TTL. One row per (mission, agent): a new claim after a release or an expiry reuses it.
// A claim is active while status = 'active', expires_at > now and the mission is open; the
// expiry job only makes the stored status (and the mission's claim_count) catch up.
export const missionClaims = pgTable(
  "mission_claims",
  {
    id: text("id").primaryKey(), // clm_<ulid>: time-ordered, the pagination key (first claimer first)
    missionId: text("mission_id").notNull(),
    agentId: text("agent_id").notNull(), // lowercase 0x address
    status: text("status", { enum: CLAIM_STATUSES }).notNull(),
    claimedAt: ts("claimed_at").notNull(),
    renewedAt: ts("renewed_at"),
    expiresAt: ts("expires_at").notNull(),
    // The exclusive window this claim was granted (missions.exclusive_claim_ttl), if any.
    exclusiveUntil: ts("exclusive_until"),
    endedAt: ts("ended_at"),
  },
  (t) => [
    uniqueIndex("mission_claims_mission_agent_uq").on(t.missionId, t.agentId),
    // GET /missions/{id}/claims and the counts under the mission lock.
    index("mission_claims_mission_id_idx").on(t.missionId, t.id).where(equals(t.status, "active")),
    // The per-agent cap.
    index("mission_claims_agent_idx").on(t.agentId).where(equals(t.status, "active")),
    // The expiry job: active claims by expiry.
    index("mission_claims_expiry_idx").on(t.expiresAt).where(equals(t.status, "active")),
    check("mission_claims_status_ck", oneOf(t.status, CLAIM_STATUSES)),
  ],
);
