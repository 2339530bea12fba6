import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { money, ts } from "./types";

// Ledger rail (docs/design.md §6): every balance change is an append-only, hash-chained entry.
// An account is (account, asset); account names: "agent:0x…", "escrow:mis_…", "treasury:<k>" (16 shards; "treasury" before the split),
// "external" (the outside world: operator credits come from it, so it alone may go negative).
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    account: text("account").notNull(),
    asset: text("asset").notNull(),
    balance: money("balance").notNull().default("0"),
    seq: bigint("seq", { mode: "number" }).notNull().default(0),
    headHash: text("head_hash").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.account, t.asset] }),
    check("ledger_accounts_non_negative", sql`${t.balance} >= 0 OR ${t.account} = 'external'`),
  ],
);

export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(), // led_…
    transferId: text("transfer_id").notNull(), // xfer_…: entries of one transfer sum to zero
    account: text("account").notNull(),
    asset: text("asset").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    amount: money("amount").notNull(), // signed delta
    balanceAfter: money("balance_after").notNull(),
    kind: text("kind").notNull(), // credit | mission_escrow | spam_fee | refund | …
    ref: text("ref"), // mission id or other subject
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("ledger_entries_account_seq_uq").on(t.account, t.asset, t.seq),
    index("ledger_entries_transfer_idx").on(t.transferId),
  ],
);
