import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
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

/**
 * MCP Tasks (2025-11-25 basic/utilities/tasks): a task-augmented tools/call that waits on a
 * mission (oracle, vote, appeal window, settlement). The status is derived from the mission's rows
 * on each tasks/get, so any process on this database answers it (docs/mcp.md "Tasks").
 */
export const mcpTasks = pgTable(
  "mcp_tasks",
  {
    id: text("id").primaryKey(),
    /** The agent that created it: only it sees the task; working tasks are capped per agent. */
    agentId: text("agent_id").notNull(),
    tool: text("tool").notNull(),
    missionId: text("mission_id").notNull(),
    submissionId: text("submission_id"),
    status: text("status").notNull(), // working | completed | failed | cancelled
    statusMessage: text("status_message"),
    /** The final CallToolResult JSON, set with the terminal status. */
    result: text("result"),
    createdAt: ts("created_at").notNull(),
    lastUpdatedAt: ts("last_updated_at").notNull(),
    ttlMs: bigint("ttl_ms", { mode: "number" }).notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("mcp_tasks_agent_idx").on(t.agentId, t.createdAt), index("mcp_tasks_expires_idx").on(t.expiresAt)],
);
