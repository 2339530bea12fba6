import type { DbOrTx } from "./client";
import { operatorAudit } from "./schema/index";
import type { AuditAction } from "./vocabulary";

// The operator's append-only audit log (docs/moderation.md "Audit log"). Every operator action
// appends one row in the transaction that acts, so the log holds exactly the committed actions;
// the table refuses UPDATE, DELETE and TRUNCATE (trigger in the migration).

export async function appendAudit(
  db: DbOrTx,
  entry: { at: Date; action: AuditAction; target?: string | null; detail?: Record<string, unknown> },
): Promise<void> {
  await db.insert(operatorAudit).values({
    at: entry.at,
    action: entry.action,
    target: entry.target ?? null,
    detail: entry.detail ?? {},
  });
}
