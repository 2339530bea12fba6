/**
 * Serialized responses kept in memory until the data under them changes (docs/design.md: feeds and
 * lists served from a cache invalidated by writes). Bounded by total bytes, least recently used
 * out first. A fill that started before an invalidation is discarded, so a response computed
 * from pre-write rows can never be stored after the write.
 *
 * Across instances the invalidation (LISTEN/NOTIFY) lags the commit, so a reader that presents a
 * write token passes `fresh`: each entry is stamped, before its
 * fill's queries start, with the database position they are guaranteed to include, and an entry
 * stamped below the reader's token is refilled instead of served. Strict, not eventual.
 */
export interface Freshness {
  /** The reader's write token: serve only entries that include it. */
  after?: bigint | undefined;
  /** The position the fill's queries will include; read before they start. */
  stamp(): Promise<bigint | undefined>;
}

interface Entry {
  text: string;
  /** What the entry's rows are guaranteed to include (undefined: unknown, e.g. PGlite). */
  version: bigint | undefined;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** Fills in progress by key (with the generation they started in): concurrent misses share one. */
  private readonly inflight = new Map<string, { generation: number; value: Promise<Entry> }>();
  private bytes = 0;
  private generation = 0;
  hits = 0;
  misses = 0;
  /** Hits refused because the entry predates the reader's write token (refilled instead). */
  stale = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  async get(key: string, fill: () => Promise<string>, fresh?: Freshness): Promise<string> {
    if (!this.enabled) return fill();
    const after = fresh?.after;
    const covers = (e: Entry) => after === undefined || (e.version !== undefined && e.version >= after);
    const hit = this.entries.get(key);
    if (hit !== undefined && covers(hit)) {
      this.hits++;
      this.entries.delete(key); // move to the back: most recently used
      this.entries.set(key, hit);
      return hit.text;
    }
    if (hit !== undefined) this.stale++;
    this.misses++;
    // Concurrent misses of one key merge into one fill — a crawler burst or a cold start costs
    // one query, not one per request — unless the shared fill began before an invalidation
    // (its rows may predate the write that invalidated: read-your-writes), or the reader has a
    // write token (the shared fill's stamp is only known once it is done).
    const shared = this.inflight.get(key);
    if (shared && shared.generation === this.generation && after === undefined) return (await shared.value).text;
    const startedAt = this.generation;
    const pending = (async (): Promise<Entry> => {
      const version = fresh ? await fresh.stamp() : undefined;
      return { text: await fill(), version };
    })();
    this.inflight.set(key, { generation: startedAt, value: pending });
    let entry: Entry;
    try {
      entry = await pending;
    } finally {
      if (this.inflight.get(key)?.value === pending) this.inflight.delete(key);
    }
    const current = this.entries.get(key);
    if (startedAt === this.generation && entry.text.length <= this.maxBytes / 4) {
      // Never replace a newer entry with an older one (two fills of one key may overlap).
      if (current === undefined || current.version === undefined || (entry.version ?? -1n) >= current.version) {
        if (current !== undefined) {
          this.entries.delete(key);
          this.bytes -= current.text.length;
        }
        this.entries.set(key, entry);
        this.bytes += entry.text.length;
        for (const [k, v] of this.entries) {
          if (this.bytes <= this.maxBytes) break;
          this.entries.delete(k);
          this.bytes -= v.text.length;
        }
      }
    }
    return entry.text;
  }
}
