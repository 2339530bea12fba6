// A bounded, per-instance fixed-window rate limiter (design.md "lib/: rate-limit"). Keys are an
// authenticated address or a client IP, never the User-Agent (AIP-1 §7.5.2). Time comes from the
// caller (the injected clock). Memory is bounded: past `maxKeys`, the oldest windows are dropped
// (a dropped key starts a fresh window — at worst a caller gets one window's allowance again).

export type RateVerdict = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string, now: Date): RateVerdict;
}

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  maxKeys?: number;
}

export function createRateLimiter({ limit, windowMs, maxKeys = 10_000 }: RateLimitOptions): RateLimiter {
  // Map iteration order is insertion order: re-inserting a key on a new window keeps the oldest first.
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key, now) {
      const t = now.getTime();
      let w = windows.get(key);
      if (!w || t < w.start || t - w.start >= windowMs) {
        windows.delete(key);
        while (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
        w = { start: t, count: 0 };
        windows.set(key, w);
      }
      if (w.count >= limit) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - t) / 1000)) };
      w.count++;
      return { ok: true, remaining: limit - w.count };
    },
  };
}
