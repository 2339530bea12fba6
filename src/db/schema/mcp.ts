import { sql } from "drizzle-orm";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./types";

// MCP Streamable HTTP sessions (AIP-1 §7.3). In the database, not in memory, so any server
// instance serves any session. `expires_at` is when the session stops being usable: the end of
// the handshake window while pending, the idle deadline while active, the termination time once
// terminated — so "live" is one comparison and the purge job one range scan.
export const mcpSessions = pgTable(
  "mcp_sessions",
  {
    id: text("id").primaryKey(),
    state: text("state").notNull(), // pending | active | terminated
    protocolVersion: text("protocol_version").notNull(),
    /** The agent that initialized the session (null: anonymous); other identities cannot use it. */
    agentId: text("agent_id"),
    clientName: text("client_name"),
    clientVersion: text("client_version"),
    createdAt: ts("created_at").notNull(),
    initializedAt: ts("initialized_at"),
    terminatedAt: ts("terminated_at"),
    expiresAt: ts("expires_at").notNull(),
    /**
     * The SIWE session (auth_sessions.token_hash) of an agent that signed in with the `sign_in`
     * tool: requests on this MCP session without credentials act as that agent while it lives.
     */
    authTokenHash: text("auth_token_hash"),
    /** The client IP that sent `initialize`: pending sessions are capped per IP. */
    clientIp: text("client_ip"),
  },
  (t) => [
    index("mcp_sessions_expires_idx").on(t.expiresAt),
    index("mcp_sessions_pending_ip_idx")
      .on(t.clientIp, t.expiresAt)
      .where(sql`state = 'pending'`),
  ],
);
