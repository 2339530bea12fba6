import { sql } from "drizzle-orm";
import type { DbOrTx } from "./client";
import { agents } from "./schema";

/** Makes sure an agent row exists (AIP-1 §1: registration is permissionless) and marks it seen. */
export async function touchAgent(db: DbOrTx, address: string, at: Date, seen = true): Promise<void> {
  await db
    .insert(agents)
    .values({ id: address, createdAt: at, updatedAt: at, lastSeenAt: seen ? at : null })
    .onConflictDoUpdate({
      target: agents.id,
      set: seen
        ? { lastSeenAt: sql`greatest(${agents.lastSeenAt}, ${at.toISOString()}::timestamptz)` }
        : { id: sql`${agents.id}` },
    });
}
