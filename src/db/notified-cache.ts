import type { Deps } from "../deps";

/**
 * An instance's cache of rows any instance may end (a session signed out, an MCP session
 * terminated), kept true by NOTIFY: whoever ends a row notifies its key in the same statement, and
 * every instance's listener evicts it on commit (docs/decisions/storage.md "Sessions cached per instance").
 * Nothing is cached until LISTEN is up; after a reconnect, when notifications may have been lost,
 * the cache starts empty. A reader re-reads an entry older than its own recheck interval anyway.
 * At most `max` entries, the oldest dropped first: churning it only sends readers back to the database.
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, { value: V; checkedAt: number }>();
  /** Bumped by every eviction: a read that began before one must not be cached (it may be stale). */
  generation = 0;
  listening = false;

  constructor(private readonly max: number) {}

  /** The value read at `checkedAt` (ms), while this instance listens. */
  get(key: string): { value: V; checkedAt: number } | undefined {
    return this.listening ? this.entries.get(key) : undefined;
  }

  /** Keeps a value read by a lookup that began at generation `startedAt`, unless an eviction came since. */
  set(key: string, value: V, checkedAt: number, startedAt: number): void {
    if (!this.listening || startedAt !== this.generation) return;
    this.entries.delete(key);
    this.entries.set(key, { value, checkedAt });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  evict(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

/**
 * One cache per database handle (one per process; tests make one per app), listening on `channel`,
 * whose payload is the key to evict. Kept out of Deps: an optimisation of the feature that uses it.
 * `what` names the rows in the warning logged when LISTEN fails (then nothing is cached).
 */
export function notifiedCaches<V>(
  channel: string,
  { max, what }: { max: number; what: string },
): (deps: Pick<Deps, "database" | "logger">) => NotifiedCache<V> {
  const caches = new WeakMap<Deps["database"], NotifiedCache<V>>();
  return ({ database, logger }) => {
    let cache = caches.get(database);
    if (!cache) {
      const created = new NotifiedCache<V>(max);
      caches.set(database, created);
      cache = created;
      database
        .listen(
          channel,
          (key) => created.evict(key),
          () => {
            created.clear();
            created.listening = true;
          },
        )
        .catch((err: unknown) =>
          logger.warn({ err }, `${what} LISTEN failed; they are read from the database on every request`),
        );
    }
    return cache;
  };
}
