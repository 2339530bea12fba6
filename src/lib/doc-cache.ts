/**
 * Serialized documents keyed by (id, version) —. One entry per id: a lookup with any other
 * version is a miss, and a newer version replaces an older one. Because the version is carried by
 * the row itself and bumped on every committed change (missions.row_version), an entry can never
 * be served for content it was not built from: no invalidation messages, no staleness across
 * instances. Bounded by the total length of the documents (characters, or bytes for Buffers),
 * least recently used out first.
 */
export class DocCache<D extends { readonly length: number } = string> {
  private readonly entries = new Map<string, { version: number; doc: D }>();
  private chars = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxChars: number) {}

  get enabled(): boolean {
    return this.maxChars > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string, version: number): D | undefined {
    const e = this.entries.get(id);
    if (e === undefined || e.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(id); // most recently used to the back
    this.entries.set(id, e);
    return e.doc;
  }

  set(id: string, version: number, doc: D): void {
    if (!this.enabled || doc.length > this.maxChars / 16) return;
    const old = this.entries.get(id);
    if (old !== undefined) {
      if (old.version > version) return; // a slower fill of an older version: keep the newer one
      this.entries.delete(id);
      this.chars -= old.doc.length;
    }
    this.entries.set(id, { version, doc });
    this.chars += doc.length;
    for (const [k, v] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(k);
      this.chars -= v.doc.length;
    }
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }
}
