import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { headOf, readEvents, type StreamEvent } from "./events.model";
import { EVENTS_CHANNEL } from "../../db/outbox";
import { assignSequence } from "./events.sequence";

/** Open `GET /events` streams (signed in) plus waiting inbox long polls per agent on one instance (then 429). */
const EVENTS_MAX_PER_AGENT = 4;
/** `GET /events` sends a comment line this often; a stream whose buffer stayed full for 4 heartbeats is closed. */
const EVENTS_HEARTBEAT_SECONDS = 15;
/**
 * Recent events kept in memory, shared by every stream of the instance; a subscriber further
 * behind gets `event: overflow` and resumes from its last id.
 */
export const EVENTS_REPLAY = 4096;
/** How often the hub polls the outbox when no NOTIFY woke it (one query per instance). */
const EVENTS_POLL_MS = 1000;

// One event hub per process (per Deps): the only reader of the outbox for the live streams.
// Woken by NOTIFY (after a commit that emitted events, src/db/outbox.ts wakeEventHubs; or the
// sequencer committed) and by a poll interval, it numbers committed events (events.sequence.ts), reads the new ones once, keeps the latest
// EVENTS_REPLAY of them in a ring shared by every subscriber, and wakes the subscribers,
// who copy from the ring: one query per tick per instance, whatever the number of subscribers.
// Each instance runs its own hub against the same database, so several instances serve the same
// stream. The hub runs only while someone listens.

/** What the hub wakes on new events, and on each heartbeat. */
export interface Listener {
  wake(): void;
  heartbeat?(): void;
}

const PAGE = 500;
/** Pages read per tick at most; the next tick goes on (a burst is read in bounded steps). */
const MAX_PAGES = 20;
/** Retry delay when committed events could not be numbered yet (rows locked by the fan-out). */
const RETRY_MS = 20;
/** Backlog batches (of 1 000) numbered when the hub starts; past that the rest counts as new. */
const START_BATCHES = 100;

/** Who asks for a slot: its client network, its agent when signed in, and whether that agent is a party of a live mission (events.parties.ts). */
export interface SlotClaimant {
  network?: string | undefined;
  agent?: string | undefined;
  party?: boolean;
}

type Tier = "party" | "agent" | "anonymous";

/**
 * The pools (docs/events.md "Connection slots"): a quarter of OABP_EVENTS_MAX_CONNECTIONS is the
 * parties' own share, which neither addresses nor agents without a stake can take; anonymous
 * streams count in their own pool of half the slots.
 */
const PARTY_SHARE_DIVISOR = 4;
const ANONYMOUS_POOL_DIVISOR = 2;
/** A tenth of the slots is the reserve only a client network holding none may take; each pool keeps its part. */
const RESERVE_DIVISOR = 10;

interface Bound {
  pool: Tier | "all";
  limit: number;
  count: number;
  reserve: number;
}

/** 503 when the pool is full, or when only its reserve is left and the network already holds a slot. */
function checkBound(b: Bound, netHolds: boolean): void {
  if (b.count >= b.limit)
    throw new AppError("SERVICE_UNAVAILABLE", "too many open event streams on this server: retry later", {
      reason: "event_connections_full",
      pool: b.pool,
    });
  if (netHolds && b.count >= b.limit - b.reserve)
    throw new AppError("SERVICE_UNAVAILABLE", "the remaining event connections are kept for new clients", {
      reason: "event_connections_reserved",
      pool: b.pool,
    });
}

function bump<K>(counts: Map<K, number>, key: K | undefined, by: number): void {
  if (key === undefined) return;
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

export class EventHub {
  /** Events with seq > floor, in order: every numbered event after `floor` up to `head`. */
  private ring: StreamEvent[] = [];
  floor = 0n;
  head = 0n;
  headId: string | undefined;
  private listeners = new Set<Listener>();
  private started: Promise<void> | null = null;
  private generation = 0;
  private pollTimer: NodeJS.Timeout | undefined;
  private beatTimer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private ready = false;
  private ticking = false;
  private again = false;
  /** Open streams and waiting long polls (OABP_EVENTS_MAX_CONNECTIONS), per client network and per agent. */
  private connections = 0;
  private perNet = new Map<string, number>();
  private perAgent = new Map<string, number>();
  private perTier = new Map<Tier, number>();
  /** How many times `closeAll` ran: a long poll admitted before one ends instead of waiting. */
  closings = 0;

  constructor(private readonly deps: Deps) {}

  /**
   * Takes a long-lived connection slot — a `GET /events` stream or a waiting inbox long poll,
   * counted together (docs/events.md "Connection slots") — or throws: 429 past
   * OABP_EVENTS_MAX_PER_IP for the client network or EVENTS_MAX_PER_AGENT for the agent;
   * 503 past the bound of the caller's pool (a party of a live mission: every slot; another agent:
   * all but the parties' share; anonymous: the anonymous pool), and once only the pool's part of
   * the reserve (a tenth, RESERVE_DIVISOR) is left, for a network that already holds one (the reserve is for new
   * clients). Release it exactly once.
   */
  admit(who: SlotClaimant): () => void {
    const cfg = this.deps.config;
    const { network, agent } = who;
    const tier: Tier = agent === undefined ? "anonymous" : who.party === true ? "party" : "agent";
    const netHeld = network === undefined ? 0 : (this.perNet.get(network) ?? 0);
    for (const bound of this.boundsOf(tier)) checkBound(bound, netHeld > 0);
    if (network !== undefined && netHeld >= cfg.eventsMaxPerIp)
      throw new AppError("RATE_LIMITED", `at most ${cfg.eventsMaxPerIp} open event connections per client network`, {
        reason: "event_streams_per_ip",
      });
    if (agent !== undefined && (this.perAgent.get(agent) ?? 0) >= EVENTS_MAX_PER_AGENT)
      throw new AppError("RATE_LIMITED", `at most ${EVENTS_MAX_PER_AGENT} open event connections per agent`, {
        reason: "event_connections_per_agent",
      });
    this.connections++;
    bump(this.perNet, network, 1);
    bump(this.perAgent, agent, 1);
    bump(this.perTier, tier, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.connections--;
      bump(this.perNet, network, -1);
      bump(this.perAgent, agent, -1);
      bump(this.perTier, tier, -1);
    };
  }

  /** The bounds a new slot of `tier` must stay under: the whole, the non-parties', the anonymous pool. */
  private boundsOf(tier: Tier): Bound[] {
    const max = this.deps.config.eventsMaxConnections;
    const reserve = Math.floor(max / RESERVE_DIVISOR);
    const held = (t: Tier) => this.perTier.get(t) ?? 0;
    const pool = (name: Tier | "all", limit: number, count: number): Bound => ({
      pool: name,
      limit,
      count,
      // The pool's part of the reserve, in proportion to its size.
      reserve: Math.floor((reserve * limit) / max),
    });
    const bounds = [pool("all", max, this.connections)];
    if (tier === "party") return bounds;
    bounds.push(pool("agent", max - Math.floor(max / PARTY_SHARE_DIVISOR), held("agent") + held("anonymous")));
    if (tier === "anonymous")
      bounds.push(pool("anonymous", Math.max(1, Math.floor(max / ANONYMOUS_POOL_DIVISOR)), held("anonymous")));
    return bounds;
  }

  get openConnections(): number {
    return this.connections;
  }

  /** Listeners attached: open `GET /events` streams and inbox long polls parked on the hub. */
  get listening(): number {
    return this.listeners.size;
  }

  /** Adds a listener; resolves once the hub knows the head (a new stream starts there). */
  async attach(l: Listener): Promise<void> {
    this.listeners.add(l);
    await this.start();
  }

  detach(l: Listener): void {
    this.listeners.delete(l);
    if (this.listeners.size === 0) this.stop();
  }

  /** Index in the ring of the first event after `seq` (valid when seq >= floor). */
  private indexAfter(seq: bigint): number {
    let lo = 0;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ring[mid]!.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Ring events after `seq`, in order, without copying the ring (iterate synchronously). */
  *after(seq: bigint): Generator<StreamEvent> {
    const ring = this.ring;
    for (let i = this.indexAfter(seq); i < ring.length; i++) yield ring[i]!;
  }

  /** Reads `limit` events after `seq` from the database (a resume older than the ring). */
  page(seq: bigint, limit: number): Promise<StreamEvent[]> {
    return readEvents(this.deps, { after: seq, limit });
  }

  wake(): void {
    if (!this.ready) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void (async () => {
      try {
        do {
          this.again = false;
          await this.tick();
        } while (this.again && this.ready);
      } catch (err) {
        this.deps.logger.warn({ err }, "event hub tick failed; retried on the next wake");
      } finally {
        this.ticking = false;
      }
    })();
  }

  private start(): Promise<void> {
    if (this.started) return this.started;
    const gen = ++this.generation;
    const { database, logger } = this.deps;
    this.started = (async () => {
      // Number the whole backlog first (bounded), not just one batch: whatever committed before
      // this start is behind the head a new stream starts at, never replayed to it as new.
      // Rows the webhook fan-out holds for a moment are left to the ticks (numbered stays 0).
      for (let i = 0; i < START_BATCHES; i++) {
        const r = await assignSequence(database.db);
        if (!r.pending || r.numbered === 0) break;
      }
      const head = await headOf(database.db);
      if (gen !== this.generation) return;
      this.head = this.floor = head.seq;
      this.headId = head.id;
      this.ring = [];
      this.ready = true;
      const unlisten = await database
        .listen(
          EVENTS_CHANNEL,
          () => this.wake(),
          () => this.wake(),
        )
        .catch((err: unknown) => {
          logger.warn({ err }, "event hub LISTEN failed; polling only");
          return undefined;
        });
      if (gen !== this.generation) {
        await unlisten?.().catch(() => {});
        return;
      }
      this.unlisten = unlisten;
      this.pollTimer = setInterval(() => this.wake(), this.deps.limits?.eventsPollMs ?? EVENTS_POLL_MS);
      this.pollTimer.unref();
      this.beatTimer = setInterval(() => {
        for (const l of [...this.listeners]) l.heartbeat?.();
      }, EVENTS_HEARTBEAT_SECONDS * 1000);
      this.beatTimer.unref();
    })();
    this.started.catch(() => {
      if (gen === this.generation) this.started = null;
    });
    return this.started;
  }

  private stop(): void {
    this.generation++;
    this.started = null;
    this.ready = false;
    clearInterval(this.pollTimer);
    clearInterval(this.beatTimer);
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    void unlisten?.().catch(() => {});
    this.ring = [];
  }

  private async tick(): Promise<void> {
    const gen = this.generation;
    const { pending } = await assignSequence(this.deps.database.db);
    // Committed events left unnumbered (locked by the webhook fan-out for a moment): soon again.
    if (pending) setTimeout(() => this.wake(), RETRY_MS).unref();
    for (let i = 0; i < MAX_PAGES; i++) {
      const rows = await readEvents(this.deps, { after: this.head, limit: PAGE });
      if (gen !== this.generation || rows.length === 0) return;
      for (const r of rows) this.ring.push(r);
      this.head = rows[rows.length - 1]!.seq;
      this.headId = rows[rows.length - 1]!.id;
      // Subscribers copy from the ring synchronously (as far as their queues take), before the
      // ring is cut back to its size: a page larger than the ring overflows only slow readers.
      for (const l of [...this.listeners]) l.wake();
      const cap = this.deps.limits?.eventsReplay ?? EVENTS_REPLAY;
      if (this.ring.length > cap) {
        const drop = this.ring.length - cap;
        this.floor = this.ring[drop - 1]!.seq;
        this.ring = this.ring.slice(drop);
      }
      if (rows.length < PAGE) return;
    }
    this.again = true;
  }

  /**
   * Ends every listener (shutdown): streams are closed, long polls answer. A long poll admitted
   * before this but still on its first scan sees `closings` moved and answers without waiting.
   */
  closeAll(): void {
    this.closings++;
    for (const l of [...this.listeners]) (l as Listener & { close?: () => void }).close?.();
    this.stop();
  }
}

const hubs = new WeakMap<Deps, EventHub>();

/** The event hub of this process for `deps`. */
export function hubOf(deps: Deps): EventHub {
  let h = hubs.get(deps);
  if (!h) {
    h = new EventHub(deps);
    hubs.set(deps, h);
  }
  return h;
}

/** Closes every event stream of `deps` (graceful shutdown: they would hold the server open). */
export function closeEventStreams(deps: Deps): void {
  hubs.get(deps)?.closeAll();
}
