import { bigint, check, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { money, ts, timestamps, isSet, oneOf } from "./types";
import { ERC8004_WRITE_STATES } from "../vocabulary";

// ERC-8004 (docs/erc-8004.md): the reporter key's writes to the identity and reputation registries,
// each signed, stored (raw bytes, hash, nonce) in the commit that marks it `broadcast`, and sent
// only after it — the discipline of a withdrawal (docs/withdrawals.md "Exactly once").

/** Fields of one stored-bytes chain write, shared by both tables. */
const write = () => ({
  state: text("state", { enum: ERC8004_WRITE_STATES }).notNull(),
  reason: text("reason"),
  nonce: integer("nonce"),
  txHash: text("tx_hash"),
  rawTx: text("raw_tx"),
  blockNumber: bigint("block_number", { mode: "number" }),
  nextCheckAt: ts("next_check_at"),
  retries: integer("retries").notNull().default(0),
  ...timestamps(),
});

/** The server's own identity: one registration per (chain, identity registry); agent_id once mined. */
export const erc8004Identities = pgTable(
  "erc8004_identities",
  {
    chainId: integer("chain_id").notNull(),
    registry: text("registry").notNull(), // lower-case identity registry
    reporter: text("reporter").notNull(), // lower-case address of the reporter key
    agentUri: text("agent_uri").notNull(),
    agentId: money("agent_id"),
    ...write(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.registry] }),
    check("erc8004_identities_state_ck", oneOf(t.state, ERC8004_WRITE_STATES)),
  ],
);

/**
 * One feedback entry per paid (mission, winner): the intent row is inserted once (the primary key),
 * and its signed `giveFeedback` is the only transaction ever sent for it.
 */
export const erc8004Feedback = pgTable(
  "erc8004_feedback",
  {
    missionId: text("mission_id").notNull(),
    agentId: text("agent_id").notNull(), // the winner's address (OABP agent id)
    erc8004AgentId: money("erc8004_agent_id").notNull(),
    chainId: integer("chain_id").notNull(),
    registry: text("registry").notNull(), // lower-case reputation registry
    releaseTx: text("release_tx").notNull(),
    feedbackUri: text("feedback_uri").notNull(),
    feedbackHash: text("feedback_hash").notNull(), // 0x + 64 hex: the receipt's digest
    feedbackIndex: integer("feedback_index"),
    ...write(),
  },
  (t) => [
    primaryKey({ columns: [t.missionId, t.agentId] }),
    index("erc8004_feedback_agent_idx").on(t.agentId, t.createdAt),
    index("erc8004_feedback_due_idx").on(t.nextCheckAt).where(isSet(t.nextCheckAt)),
    check("erc8004_feedback_state_ck", oneOf(t.state, ERC8004_WRITE_STATES)),
  ],
);
