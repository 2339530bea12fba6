import type { OabpClient } from "./client.js";
import type { Mission } from "./types.js";

// Event following by polling: plain GETs work through any proxy and need no open stream (the server
// also has a live stream, GET /events, and webhooks: docs/events.md). Each yield is the mission when something a participant acts
// on changed; the iterator ends when the mission reaches a state nothing more happens in.

const TERMINAL_PAYOUT = new Set(["confirmed", "final", "not_applicable"]);

/** Nothing further will happen: voided, or resolved with the payout confirmed. */
export const isSettled = (m: Mission): boolean =>
  m.status === "voided" || (m.status === "resolved" && TERMINAL_PAYOUT.has(m.payout_status));

const fingerprint = (m: Mission) => JSON.stringify([m.status, m.phase, m.payout_status, m.submission_count]);

export interface FollowOptions {
  intervalMs?: number;
  /** Stop after this many polls (default 10 000); the caller's bound on an unattended loop. */
  maxPolls?: number;
  signal?: AbortSignal;
  /** End when this holds (default: isSettled). */
  until?: (m: Mission) => boolean;
}

export async function* followMission(
  client: OabpClient,
  id: string,
  opts: FollowOptions = {},
): AsyncGenerator<Mission> {
  const until = opts.until ?? isSettled;
  let last = "";
  for (let i = 0; i < (opts.maxPolls ?? 10_000); i++) {
    if (opts.signal?.aborted) return;
    const m = await client.getMission(id);
    const f = fingerprint(m);
    if (f !== last) {
      last = f;
      yield m;
    }
    if (until(m)) return;
    await sleep(opts.intervalMs ?? 2_000, opts.signal);
  }
}

/** New missions matching a search, as they appear (newest first per poll; each yielded once). */
export async function* followSearch(
  client: OabpClient,
  query: Parameters<OabpClient["listMissions"]>[0],
  opts: Omit<FollowOptions, "until"> & { maxSeen?: number } = {},
): AsyncGenerator<Mission> {
  const seen = new Set<string>();
  const maxSeen = opts.maxSeen ?? 100_000;
  for (let i = 0; i < (opts.maxPolls ?? 10_000); i++) {
    if (opts.signal?.aborted) return;
    const page = await client.listMissions({ ...query, limit: 100 });
    for (const m of [...page.missions].reverse()) {
      if (seen.has(m.id)) continue;
      if (seen.size >= maxSeen) seen.delete(seen.values().next().value!);
      seen.add(m.id);
      yield m;
    }
    await sleep(opts.intervalMs ?? 5_000, opts.signal);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}
