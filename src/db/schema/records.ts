import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

/** How many creator-judged awards the median time from deadline to award is taken over. */
export const AWARD_DELAY_WINDOW = 64;

// An agent's track record as a creator and as a claimer, kept as COUNTERS by the
// agent_records triggers (drizzle/…_record_*.sql) in the very transaction that moves a mission's
// status, a claim's status or a dispute's outcome — whoever writes it — so a read is one primary-key
// row, flat in data size. A row exists once an address has posted a mission or claimed one.
export const agentRecords = pgTable(
  "agent_records",
  {
    agentId: text("agent_id").primaryKey(), // lowercase 0x address
    // As a creator: missions made public (open), resolved with a payout, voided after going public
    // (and of those, voided while holding submissions), resolved by the default award because the
    // creator never judged, and disputes lost (an overturned award, an upheld AIP-4 non_payment or
    // bad_spec dispute).
    missionsPosted: integer("missions_posted").notNull().default(0),
    missionsPaid: integer("missions_paid").notNull().default(0),
    missionsVoided: integer("missions_voided").notNull().default(0),
    missionsVoidedWithSubmissions: integer("missions_voided_with_submissions").notNull().default(0),
    missionsNeverJudged: integer("missions_never_judged").notNull().default(0),
    disputesLost: integer("disputes_lost").notNull().default(0),
    // Seconds from deadline to award (0 when awarded before the deadline) of the last
    // AWARD_DELAY_WINDOW creator_judges awards, oldest first: the median is read from it.
    awardDelays: integer("award_delays").array().notNull().default([]),
    // paid / (paid + voided with submissions), in basis points; null until one such mission ended.
    // The discovery filter creator_min_paid_ratio reads it through its index.
    paidRatioBp: integer("paid_ratio_bp").generatedAlwaysAs(
      sql`case when missions_paid + missions_voided_with_submissions > 0 then (missions_paid * 10000) / (missions_paid + missions_voided_with_submissions) end`,
    ),
    // As a claimer: claims taken (a renewal is not a new claim) and claims that ended (released or
    // expired) without a submission by the claimer to that mission.
    claimsMade: integer("claims_made").notNull().default(0),
    claimsAbandoned: integer("claims_abandoned").notNull().default(0),
  },
  (t) => [
    index("agent_records_paid_ratio_idx").on(t.paidRatioBp, t.agentId),
    index("agent_records_never_judged_idx").on(t.missionsNeverJudged, t.agentId),
  ],
);

// A creator's own block-list, applied to every mission it posts (claim and
// submission). Private to its owner. Bounded by BLOCKLIST_MAX per owner.
/** Addresses on one creator's standing block-list (PUT /agents/{id}/blocklist); published in the manifest. */
export const BLOCKLIST_MAX = 1000;
export const agentBlocklist = pgTable(
  "agent_blocklist",
  {
    owner: text("owner").notNull(),
    blocked: text("blocked").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.blocked] })],
);
