import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts, isSet } from "./types";

// OADP federation (docs/protocols/OADP-discovery.txt, "Federation"): hubs that agents reported
// through POST /federation/report, deduplicated on their normalised URL.
export const oadpHubs = pgTable(
  "oadp_hubs",
  {
    url: text("url").primaryKey(), // normalised https URL (see features/oadp/federation.url.ts)
    domain: text("domain").notNull(), // URL host (with a non-default port): the unit of verification
    signalLayer: text("signal_layer").notNull(), // where the first reporter saw it
    reportCount: integer("report_count").notNull().default(1),
    firstReportedAt: ts("first_reported_at").notNull(),
    lastReportedAt: ts("last_reported_at").notNull(),
  },
  (t) => [
    index("oadp_hubs_domain_idx").on(t.domain),
    // GET /federation/hubs: newest first.
    index("oadp_hubs_first_reported_idx").on(t.firstReportedAt, t.url),
  ],
);

// One row per reported domain: its /.well-known/agent-protocol.json check, done by a job only when
// the operator enables verification, never more often than the scan interval.
export const oadpDomains = pgTable(
  "oadp_domains",
  {
    domain: text("domain").primaryKey(),
    status: text("status").notNull().default("unverified"), // unverified | verified | stale
    hubName: text("hub_name"), // hub.name of the verified document
    verifiedAt: ts("verified_at"),
    lastScanAt: ts("last_scan_at"),
    lastError: text("last_error"),
    failures: integer("failures").notNull().default(0),
    // When the job may look at the domain next (also its lease while a scan runs); null = never.
    nextScanAt: ts("next_scan_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    index("oadp_domains_next_scan_idx").on(t.nextScanAt).where(isSet(t.nextScanAt)),
    check("oadp_domains_status_ck", sql`${t.status} in ('unverified', 'verified', 'stale')`),
  ],
);
