// Reads a text/event-stream body frame by frame (GET /events tests and bench/events.ts).

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
}

export interface SseReader {
  status: number;
  headers: Headers;
  /** The next frame with data (comments and `retry:` skipped); rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseFrame>;
  /** Frames until `pred` holds for one (included), at most `max`. */
  until(pred: (f: SseFrame) => boolean, timeoutMs?: number, max?: number): Promise<SseFrame[]>;
  /** Resolves when the server ends the stream (true) or after `timeoutMs` (false). */
  ended(timeoutMs?: number): Promise<boolean>;
  close(): void;
}

export function parseBlock(block: string): SseFrame | null {
  const f: SseFrame = {};
  let any = false;
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const i = line.indexOf(":");
    const k = i < 0 ? line : line.slice(0, i);
    const v = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
    if (k === "id") f.id = v;
    else if (k === "event") f.event = v;
    else if (k === "data") f.data = f.data === undefined ? v : `${f.data}\n${v}`;
    else continue;
    any = true;
  }
  return any && f.data !== undefined ? f : null;
}

/** Wraps a Response whose body is an event stream. */
export function sseReader(res: Response, abort?: () => void): SseReader {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let done = false;
  const queue: SseFrame[] = [];
  let pending: Promise<void> | undefined;
  const pump = (): Promise<void> =>
    (pending ??= reader.read().then(
      ({ value, done: d }) => {
        pending = undefined;
        if (d) {
          done = true;
          return;
        }
        buf += dec.decode(value, { stream: true });
        let at: number;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          const f = parseBlock(buf.slice(0, at));
          buf = buf.slice(at + 2);
          if (f) queue.push(f);
        }
      },
      () => {
        pending = undefined;
        done = true;
      },
    ));
  const withTimeout = <T>(p: Promise<T>, ms: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`SSE: no ${what} within ${ms} ms`)), ms);
      p.then(
        (v) => (clearTimeout(t), resolve(v)),
        (e) => (clearTimeout(t), reject(e)),
      );
    });
  const nextFrame = async (): Promise<SseFrame> => {
    while (queue.length === 0) {
      if (done) throw new Error("SSE: stream ended");
      await pump();
    }
    return queue.shift()!;
  };
  return {
    status: res.status,
    headers: res.headers,
    next: (timeoutMs = 10_000) => withTimeout(nextFrame(), timeoutMs, "frame"),
    async until(pred, timeoutMs = 10_000, max = 100_000) {
      const out: SseFrame[] = [];
      for (let i = 0; i < max; i++) {
        const f = await withTimeout(nextFrame(), timeoutMs, "matching frame");
        out.push(f);
        if (pred(f)) return out;
      }
      throw new Error(`SSE: no matching frame in ${max}`);
    },
    async ended(timeoutMs = 10_000) {
      const run = async () => {
        while (!done) await pump();
        return true;
      };
      return withTimeout(run(), timeoutMs, "end").catch(() => false);
    },
    close() {
      abort?.();
      reader.cancel().catch(() => {});
    },
  };
}

/** Opens `url` over real HTTP and reads its event stream. */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: ac.signal });
  if (!res.body) throw new Error("no body");
  return sseReader(res, () => ac.abort());
}
