import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps, isSet } from "./types";

// ADP Agent Cards advertised to this server (draft-song-anp-adp-00 §4.2), one per agent (EVM
// address). `card` is the RFC 8785 canonical text of the card exactly as advertised, signature
// included; the other columns are derived from it for discovery (§5) and the §3.2/§7.3 rules.
export const adpCards = pgTable(
  "adp_cards",
  {
    agentId: text("agent_id").primaryKey(), // lowercase 0x address the card is bound to
    cardId: text("card_id").notNull(), // the card's agent:// id
    name: text("name").notNull(),
    // The did:key whose signature the stored card carries; null for an unsigned card (an unsigned
    // card's did is not proven, so it binds nothing).
    did: text("did"),
    seq: bigint("seq", { mode: "number" }),
    signed: boolean("signed").notNull(),
    card: text("card").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    skills: text("skills").array().notNull().default([]), // as declared
    skillPaths: text("skill_paths").array().notNull().default([]), // normalised skills and their ancestors
    words: text("words").array().notNull().default([]), // name, description and skill labels
    maxConcurrentTasks: integer("max_concurrent_tasks"),
    revoked: boolean("revoked").notNull().default(false), // §6.4: empty tools and endpoints
    ...timestamps(),
  },
  (t) => [
    // A did:key vouches for one agent only: a signature-only advertise must name one binding.
    uniqueIndex("adp_cards_did_uq").on(t.did).where(isSet(t.did)),
    // Discovery prefilters (tag paths, words) and the bounded candidate order.
    index("adp_cards_skill_paths_gin").using("gin", t.skillPaths),
    index("adp_cards_words_gin").using("gin", t.words),
    index("adp_cards_updated_idx").on(t.updatedAt, t.agentId),
  ],
);

// Discovery flat in directory size: one row per (term, card) of every card not revoked — term `p:<skill path>` or
// `w:<word>` — kept by the adp_cards trigger (drizzle/0035_reads_epoch_card_terms.sql). Discovery reads, per
// query term, the freshest entries of this index, ADP_TERM_BUDGET entries shared by the
// query's terms, however many cards match (src/features/adp/adp.discovery.ts).
export const adpCardTerms = pgTable(
  "adp_card_terms",
  {
    term: text("term").notNull(),
    agentId: text("agent_id").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.term, t.agentId] }),
    index("adp_card_terms_order_idx").on(t.term, t.updatedAt.desc(), t.agentId),
    index("adp_card_terms_agent_idx").on(t.agentId),
  ],
);

// The server's own Agent Card: the hash of its content (without seq, signature and timestamps)
// and the seq that content was given. A changed content gets seq + 1 (§3.2 "MUST increment").
export const adpServerCard = pgTable("adp_server_card", {
  id: text("id").primaryKey(), // always "self"
  contentHash: text("content_hash").notNull(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  ...timestamps(),
});
