/**
 * Serialized responses kept in memory until the data under them changes (design.md: feeds and
 * lists served from a cache invalidated by writes). Bounded by total bytes, least recently used
 * out first. A fill that started before an invalidation is discarded, so a response computed
 * from pre-write rows can never be stored after the write.
 */
export class ResponseCache {
  private readonly entries = new Map<string, string>();
  /** Fills in progress by key (with the generation they started in): concurrent misses share one. */
  private readonly inflight = new Map<string, { generation: number; value: Promise<string> }>();
  private bytes = 0;
  private generation = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  async get(key: string, fill: () => Promise<string>): Promise<string> {
    if (!this.enabled) return fill();
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.hits++;
      this.entries.delete(key); // move to the back: most recently used
      this.entries.set(key, hit);
      return hit;
    }
    this.misses++;
    // Concurrent misses of one key merge into one fill — a crawler burst or a cold start costs
    // one query, not one per request — unless the shared fill began before an invalidation
    // (its rows may predate the write that invalidated: read-your-writes).
    const shared = this.inflight.get(key);
    if (shared && shared.generation === this.generation) return shared.value;
    const startedAt = this.generation;
    const pending = fill();
    this.inflight.set(key, { generation: startedAt, value: pending });
    let value: string;
    try {
      value = await pending;
    } finally {
      if (this.inflight.get(key)?.value === pending) this.inflight.delete(key);
    }
    if (startedAt === this.generation && value.length <= this.maxBytes / 4) {
      this.entries.set(key, value);
      this.bytes += value.length;
      for (const [k, v] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.entries.delete(k);
        this.bytes -= v.length;
      }
    }
    return value;
  }
}
