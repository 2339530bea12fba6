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
 *
 * A reader without a token is exact too when the cache has an `epoch` (docs/decisions/storage.md "Exact
 * list caches across instances"): a counter in the database bumped by every commit that changes
 * what the cached answers show. Each read asks it once; an entry is served only if the counter
 * read before the entry's fill is at least the reader's, so no commit the reader could know of
 * (its own write on another instance included) is missing from what it is served.
 */
export interface Freshness {
  /** The reader's write token: serve only entries that include it. */
  after?: bigint | undefined;
  /** The position the fill's queries will include; read before they start. */
  stamp?(): Promise<bigint | undefined>;
  /** The database's change counter for this cache, read where the fill's queries would run. */
  epoch?(): Promise<number>;
}

interface Entry {
  text: string;
  /** What the entry's rows are guaranteed to include (undefined: unknown, e.g. PGlite). */
  version: bigint | undefined;
  /** The change counter read before the fill (undefined: none asked). */
  epoch: number | undefined;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** Fills in progress by key (with the generation they started in): concurrent misses share one. */
  private readonly inflight = new Map<
    string,
    { generation: number; epoch: number | undefined; value: Promise<Entry> }
  >();
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
    // Read first: everything committed before this read started is at or below `epoch`.
    const epoch = fresh?.epoch ? await fresh.epoch() : undefined;
    const hit = this.lookup(key, after, epoch);
    if (hit !== undefined) return hit;
    const shared = this.sharedFill(key, after, epoch);
    if (shared) return (await shared).text;
    const startedAt = this.generation;
    const pending = (async (): Promise<Entry> => {
      const version = fresh?.stamp ? await fresh.stamp() : undefined;
      return { text: await fill(), version, epoch };
    })();
    this.inflight.set(key, { generation: startedAt, epoch, value: pending });
    let entry: Entry;
    try {
      entry = await pending;
    } finally {
      if (this.inflight.get(key)?.value === pending) this.inflight.delete(key);
    }
    if (startedAt === this.generation && entry.text.length <= this.maxBytes / 4) this.store(key, entry);
    return entry.text;
  }

  /** The entry's text when it includes the reader's write token and change counter (moved to most recently used). */
  private lookup(key: string, after: bigint | undefined, epoch: number | undefined): string | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) {
      this.misses++;
      return undefined;
    }
    const covers =
      (after === undefined || (hit.version !== undefined && hit.version >= after)) &&
      (epoch === undefined || (hit.epoch !== undefined && hit.epoch >= epoch));
    if (!covers) {
      this.stale++;
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key); // move to the back: most recently used
    this.entries.set(key, hit);
    return hit.text;
  }

  /**
   * Concurrent misses of one key merge into one fill — a crawler burst or a cold start costs one
   * query, not one per request — unless the shared fill began before an invalidation (its rows
   * may predate the write that invalidated: read-your-writes), or the reader has a write token
   * (the shared fill's stamp is only known once it is done). A shared fill with an epoch at or
   * past this reader's ran its queries after everything the reader must see had committed.
   */
  private sharedFill(key: string, after: bigint | undefined, epoch: number | undefined): Promise<Entry> | undefined {
    const shared = this.inflight.get(key);
    if (!shared || shared.generation !== this.generation || after !== undefined) return undefined;
    if (epoch !== undefined && (shared.epoch === undefined || shared.epoch < epoch)) return undefined;
    return shared.value;
  }

  /** Stores a fill's entry unless a newer one is there (two fills of one key may overlap); evicts past maxBytes. */
  private store(key: string, entry: Entry): void {
    const current = this.entries.get(key);
    if (current !== undefined) {
      if (current.version !== undefined && (entry.version ?? -1n) < current.version) return;
      if (current.epoch !== undefined && (entry.epoch ?? -1) < current.epoch) return;
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
