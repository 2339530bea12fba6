// In-process concurrency caps per key (docs/abuse.md "Resolver"): a fetch takes a slot on its
// host's registrable domain and on each address it connects to, or is refused at once
// (`host_busy`) so a worker is never parked behind a tarpit. Slots are released exactly once.

export interface KeyedSlots {
  /** A release function, or undefined when `key` already holds `cap` slots. */
  tryAcquire(key: string): (() => void) | undefined;
  /** Slots held now under `key` (0 when none). */
  held(key: string): number;
}

export function createKeyedSlots(cap: number): KeyedSlots {
  const counts = new Map<string, number>();
  return {
    tryAcquire(key) {
      const n = counts.get(key) ?? 0;
      if (n >= cap) return undefined;
      counts.set(key, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(key) ?? 1) - 1;
        if (left <= 0) counts.delete(key);
        else counts.set(key, left);
      };
    },
    held: (key) => counts.get(key) ?? 0,
  };
}
