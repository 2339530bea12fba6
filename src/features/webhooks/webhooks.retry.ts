// Retry schedule of a webhook delivery: exponential backoff with jitter over a bounded window
// ("for about three days"). After the n-th failed attempt the next one is due after
// min(cap, base × 2^(n−1)), scaled by a random factor in [1 − jitter, 1 + jitter) so endpoints
// that failed together are not retried in lockstep. The window (WEBHOOK_RETRY_WINDOW_SECONDS,
// default 3 days) runs from the delivery's creation; the last attempt is made at its end, and a
// failure then is final.

const RETRY_BASE_MS = 10_000;
export const RETRY_CAP_MS = 12 * 3_600_000;
const RETRY_JITTER = 0.2;

/** Nominal delay (no jitter) after `failedAttempts` (≥ 1) failed attempts. */
export function nominalDelayMs(failedAttempts: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, failedAttempts - 1));
}

/** When to try again after `failedAttempts` failures, or null when the window is spent. */
export function nextAttemptAt(o: {
  failedAttempts: number;
  createdAt: Date;
  now: Date;
  windowMs: number;
  random?: () => number;
}): Date | null {
  const end = o.createdAt.getTime() + o.windowMs;
  const now = o.now.getTime();
  if (now >= end) return null;
  const r = (o.random ?? Math.random)();
  const delay = nominalDelayMs(o.failedAttempts) * (1 - RETRY_JITTER + 2 * RETRY_JITTER * r);
  return new Date(Math.min(now + Math.round(delay), end));
}
