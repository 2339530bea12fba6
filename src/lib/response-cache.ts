/**
 * Serialized responses kept in memory until the data under them changes (design.md: feeds and
 * lists served from a cache invalidated by writes). Bounded by total bytes, least recently used
 * out first. A fill that started before an invalidation is discarded, so a response computed
 * from pre-write rows can never be stored after the write.
 */
export class ResponseCache {
  private readonly entries = new Map<string, string>();
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
    const startedAt = this.generation;
    const value = await fill();
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
