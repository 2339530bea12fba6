import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { EVENTS_CHANNEL } from "../../db/outbox";

// The live streams' cursor (docs/events.md "Order and cursor"). Event ids are time-ordered ULIDs
// taken when the event is emitted, but transactions commit in another order: a reader that
// remembered "the last id I saw" would skip an event whose transaction started earlier and
// committed later. So each event gets a second number, `seq`, assigned AFTER it committed, by one
// sequencer at a time (a transaction-scoped advisory lock across every instance), from a
// sequence. A sequencer transaction commits before the next one can take the lock, so the
// numbers become visible in increasing order: a reader that has seen seq N has seen every event
// numbered below N, and any event it has not seen yet will be numbered above N. Uncommitted
// events are invisible to the sequencer and get their number once they commit.

/** pg_advisory_xact_lock key of the sequencer. */
const SEQUENCER_LOCK = 727_276;

function rowsOf<T>(r: unknown): T[] {
  return (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[];
}

const unnumbered = async (db: Db) =>
  rowsOf<{ id: string }>(await db.execute(sql`select id from webhook_events where seq is null limit 1`)).length > 0;

/**
 * Numbers up to `batch` committed, unnumbered events in id order. Another instance holding the
 * lock means it is numbering them: this one numbers none and reads what that one commits (its
 * NOTIFY wakes us). Rows locked by the webhook fan-out are skipped: `pending` then says that
 * committed events are still unnumbered, and the caller runs again shortly.
 */
export async function assignSequence(db: Db, batch = 1000): Promise<{ numbered: number; pending: boolean }> {
  if (!(await unnumbered(db))) return { numbered: 0, pending: false };
  const numbered = await db.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${SEQUENCER_LOCK}) as ok`),
    );
    if (!lock?.ok) return -1;
    const numbered = rowsOf<{ id: string }>(
      await tx.execute(sql`update webhook_events w set seq = n.s
        from (select x.id, nextval('webhook_events_seq') as s
                from (select id from webhook_events where seq is null order by id limit ${batch}
                      for update skip locked) x) n
        where w.id = n.id returning w.id`),
    );
    if (numbered.length > 0) {
      // The inbox's index (events.inbox.ts): the parties of every event just numbered, as
      // events.model.ts partiesOf reads them (creator, submitter, agent_id, winners[].agent_id).
      const ids = sql.join(
        numbered.map((r) => sql`${r.id}`),
        sql`, `,
      );
      await tx.execute(sql`insert into event_parties (agent, seq, event_id)
        select distinct lower(p.agent), w.seq, w.id from webhook_events w
        cross join lateral (
          select w.creator as agent
          union all select w.data::jsonb ->> k from unnest(array['submitter', 'agent_id']) k
            where jsonb_typeof(w.data::jsonb -> k) = 'string'
          union all select x ->> 'agent_id' from jsonb_array_elements(
              case when jsonb_typeof(w.data::jsonb -> 'winners') = 'array' then w.data::jsonb -> 'winners' else '[]'::jsonb end) x
            where jsonb_typeof(x -> 'agent_id') = 'string'
        ) p
        where w.id in (${ids}) and p.agent is not null
        on conflict do nothing`);
      await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, 'seq')`);
    }
    return numbered.length;
  });
  if (numbered < 0) return { numbered: 0, pending: false };
  return { numbered, pending: await unnumbered(db) };
}
