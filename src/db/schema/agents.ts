import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

// AIP-1 §1 profile metadata. A row exists once an address signs in, writes a profile or is
// credited; reads of unknown addresses answer the defaults.
export const agents = pgTable("agents", {
  id: text("id").primaryKey(), // lowercase 0x address
  displayName: text("display_name"),
  kind: text("kind"), // human | autonomous | hybrid
  mcpEndpoint: text("mcp_endpoint"),
  capabilities: text("capabilities").array().notNull().default([]),
  metadataUri: text("metadata_uri"),
  rating: integer("rating").notNull().default(1400),
  createdAt: ts("created_at").notNull(),
  updatedAt: ts("updated_at").notNull(),
  lastSeenAt: ts("last_seen_at"),
});
