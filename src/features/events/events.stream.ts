import type { Deps } from "../../deps";
import { matches, type StreamFilter } from "./events.filter";
import { hubOf, type EventHub, type Listener } from "./events.hub";
import { encode, type StreamEvent } from "./events.model";

// One GET /events connection (docs/events.md). The subscriber owns a cursor (the seq of the
// last event it has passed, delivered or filtered out) and a bounded queue: the response's
// ReadableStream with a high-water mark of EVENTS_BUFFER frames, which the HTTP server
// drains only as fast as the socket takes them. Events are copied from the hub's ring only while
// the queue has room, so a slow reader holds its queue and nothing else. A reader that falls
// behind the ring (more than EVENTS_REPLAY events) gets `event: overflow` naming the id to
// resume from, and is disconnected; one whose queue stays full for 4 heartbeats is cut. A resume
// older than the ring reads the database a page at a time, paced by the reader likewise.

/** Events queued per connection for a subscriber that reads slower than they come. */
const EVENTS_BUFFER = 64;
/** Catch-up page size (a resume older than the ring). */
const CATCH_UP_PAGE = 200;
/** Heartbeats with a full queue before the connection is cut. */
const STALLED_BEATS = 4;
/** After `event: overflow` is queued, how long the reader has to take it before the cut. */
const OVERFLOW_GRACE_MS = 5_000;

export interface StreamOptions {
  /** Seq of the position to start after; undefined: the hub's head (new events only). */
  cursor?: { seq: bigint; id: string };
  filter: StreamFilter;
  release: () => void;
  /** Destroys the connection (node's socket); without it the stream is errored instead. */
  destroy?: (() => void) | undefined;
}

class Subscriber implements Listener {
  private cursor = 0n;
  private cursorId: string | undefined;
  private live = false;
  private opened = false;
  private pumping = false;
  private closed = false;
  private stalled = 0;
  controller!: ReadableStreamDefaultController<Uint8Array>;

  constructor(
    private readonly hub: EventHub,
    private readonly deps: Deps,
    private readonly opts: StreamOptions,
  ) {}

  async open(): Promise<void> {
    await this.hub.attach(this);
    if (this.opts.cursor) {
      this.cursor = this.opts.cursor.seq;
      this.cursorId = this.opts.cursor.id;
    } else {
      this.cursor = this.hub.head;
      this.cursorId = this.hub.headId;
    }
    this.opened = true;
  }

  private room(): boolean {
    return (this.controller.desiredSize ?? 0) > 0;
  }

  private pass(e: StreamEvent): void {
    if (matches(this.opts.filter, e)) this.controller.enqueue(e.frame);
    this.cursor = e.seq;
    this.cursorId = e.id;
  }

  wake(): void {
    void this.pump().catch((err: unknown) => {
      this.deps.logger.warn({ err }, "event stream failed; closing it");
      this.close();
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping || this.closed || !this.opened) return;
    this.pumping = true;
    try {
      // Bounded: each round delivers, or waits for room, or ends the stream.
      for (let round = 0; round < 10_000 && !this.closed; round++) if (!(await this.step())) return;
    } finally {
      this.pumping = false;
    }
  }

  /** One round of the pump; false when it stops (caught up, out of room, or ended). */
  private async step(): Promise<boolean> {
    if (this.cursor >= this.hub.head) {
      this.live = true;
      return false;
    }
    if (this.cursor < this.hub.floor) return this.catchUp();
    return this.deliver(this.hub.after(this.cursor));
  }

  /** A resume from before the ring: the database, one page at a time, while there is room. */
  private async catchUp(): Promise<boolean> {
    if (this.live) {
      this.overflow();
      return false;
    }
    if (!this.room()) return false;
    const page = await this.hub.page(this.cursor, CATCH_UP_PAGE);
    if (this.closed) return false;
    if (page.length === 0) {
      this.cursor = this.hub.floor; // purged meanwhile: go on from the ring
      return true;
    }
    return this.deliver(page);
  }

  /** Passes events on while there is room; false when the buffer is full. */
  private deliver(events: Iterable<StreamEvent>): boolean {
    for (const e of events) {
      if (matches(this.opts.filter, e) && !this.room()) return false;
      this.pass(e);
    }
    return true;
  }

  heartbeat(): void {
    if (this.closed) return;
    if (this.room()) {
      this.stalled = 0;
      this.controller.enqueue(encode(": heartbeat\n\n"));
      return;
    }
    if (++this.stalled >= STALLED_BEATS) this.cut("stalled");
  }

  private overflow(): void {
    if (this.closed) return;
    const frame = `event: overflow\ndata: ${JSON.stringify({
      reason: "slow_consumer",
      resume_after: this.cursorId ?? null,
      message: "this connection fell behind; reconnect with Last-Event-ID set to resume_after",
    })}\n\n`;
    // One frame past the high-water mark at most, then the end of the stream.
    this.controller.enqueue(encode(frame));
    this.finish();
    try {
      this.controller.close();
    } catch {
      /* already closed */
    }
    // A reader that never takes even this frame is cut, dropping its queue.
    setTimeout(() => this.abort(), OVERFLOW_GRACE_MS).unref();
  }

  private cut(reason: string): void {
    this.deps.logger.debug({ reason }, "event stream cut");
    this.finish();
    this.abort();
  }

  private abort(): void {
    if (this.opts.destroy) return this.opts.destroy();
    try {
      this.controller.error(new Error("event stream cut"));
    } catch {
      /* already closed or errored */
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.hub.detach(this);
    this.opts.release();
  }

  /** The server shuts down: the connection is cut (clients resume with Last-Event-ID). */
  close(): void {
    this.finish();
    this.abort();
  }

  cancelled(): void {
    this.finish();
  }
}

/** Opens a subscriber and its response stream. The connection slot is released when it ends. */
export async function openEventStream(deps: Deps, opts: StreamOptions): Promise<ReadableStream<Uint8Array>> {
  const sub = new Subscriber(hubOf(deps), deps, opts);
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        sub.controller = controller;
        // Reconnect delay for EventSource clients, and a first line so the headers are flushed.
        controller.enqueue(encode(`retry: 3000\n: connected\n\n`));
      },
      pull() {
        sub.wake();
      },
      cancel() {
        sub.cancelled();
      },
    },
    new CountQueuingStrategy({ highWaterMark: (deps.limits?.eventsBuffer ?? EVENTS_BUFFER) + 1 }),
  );
  try {
    await sub.open();
  } catch (err) {
    sub.cancelled();
    throw err;
  }
  sub.wake();
  return stream;
}
