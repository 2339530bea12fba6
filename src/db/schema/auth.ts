import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./types";

// SIWE nonces: single use, 5 minutes (docs/design.md "Identity").
export const authNonces = pgTable(
  "auth_nonces",
  {
    nonce: text("nonce").primaryKey(),
    issuedAt: ts("issued_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [index("auth_nonces_expires_idx").on(t.expiresAt)],
);

// Bearer sessions: only the sha256 of the token is stored.
export const authSessions = pgTable(
  "auth_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    agentId: text("agent_id").notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("auth_sessions_agent_idx").on(t.agentId)],
);

// AIP-1 §1.4 registry attestations: api_key (hashed) -> bound EVM address until expires_at.
export const registryBindings = pgTable(
  "registry_bindings",
  {
    apiKeyHash: text("api_key_hash").primaryKey(),
    registryDomain: text("registry_domain").notNull(),
    agentId: text("agent_id").notNull(),
    profile: text("profile"),
    issuedAt: ts("issued_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("registry_bindings_agent_idx").on(t.agentId)],
);

// Idempotency-Key records (docs/design.md): same key + same body -> the stored response.
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(), // caller address + route
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    statusCode: text("status_code").notNull(),
    response: text("response").notNull(), // the exact JSON body sent
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("idempotency_scope_key_uq").on(t.scope, t.key)],
);
