// `npm run bench:events`. The real server process
// (src/main.ts) on real PostgreSQL; SUBSCRIBERS concurrent GET /events readers over HTTP; EVENTS
// outbox events committed by WRITERS concurrent transactions that stay open a random few ms, so
// commit order differs from id order. Checks: every reader gets every committed event exactly
// once, in the same order (the sequencer's); RESUMERS readers drop mid-way and come back with
// Last-Event-ID and still miss nothing; one raw socket that never reads does not hold up the
// others and is overflowed; the server's RSS is sampled throughout.
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/oabp_bench_events) is dropped
// and recreated; its name must contain "bench". Knobs: BENCH_SUBSCRIBERS (200), BENCH_EVENTS
// (2000), BENCH_RATE (events/s, 250), BENCH_WRITERS (4), BENCH_RESUMERS (20).
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../src/db/client";
import { emitEvents, type OutboxEvent } from "../src/db/outbox";
import { EVENTS_REPLAY } from "../src/features/events/events.hub";
import { freePort, log, recreateDatabase, sleep, startChild, stopAll, waitReady } from "./harness";
import { openSse, type SseReader } from "../test/helpers/sse";

const DB_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/oabp_bench_events";
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 200);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const RATE = Number(process.env.BENCH_RATE ?? 250);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 4);
const RESUMERS = Math.min(Number(process.env.BENCH_RESUMERS ?? 20), SUBSCRIBERS);
// More than the server's ring (EVENTS_REPLAY): the slow reader overflows.
const SLOW_EVENTS = Number(process.env.BENCH_SLOW_EVENTS ?? Math.ceil((EVENTS_REPLAY + 1000) / 1000) * 1000);
const FAST_READERS = 5;
// Every reader is anonymous from one network: the anonymous pool is half the slots, less its part
// of the reserve (a tenth) that a network already holding one cannot take.
const SLOTS = 4 * (SUBSCRIBERS + RESUMERS + 10);

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function main() {
  await recreateDatabase(DB_URL);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startChild("server", ["--import", "tsx", "src/main.ts"], {
    DATABASE_URL: DB_URL,
    PORT: String(port),
    HOST: "127.0.0.1",
    OABP_PUBLIC_URL: base,
    OABP_ADMIN_TOKEN: "bench-admin-token-0123456789abcdef",
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    OABP_DATA_DIR: await mkdtemp(path.join(tmpdir(), "oabp-bench-events-")),
    OABP_EVENTS_MAX_PER_IP: String(SUBSCRIBERS + RESUMERS + 10),
    OABP_EVENTS_MAX_CONNECTIONS: String(SLOTS),
  });
  await waitReady(server, `${base}/ready`, 120_000);
  const pid = server.proc.pid!;
  const rss = { idle: rssMb(pid), peak: 0, samples: [] as number[] };
  const sampler = setInterval(() => {
    const v = rssMb(pid);
    rss.samples.push(v);
    rss.peak = Math.max(rss.peak, v);
  }, 250);

  // The writers' database (the bench's own pool) and a bench tag every event carries.
  const database = await openDatabase({ url: DB_URL, migrate: false, poolMax: WRITERS + 2 });
  const tag = "bench";

  // Readers: each keeps the ids it received, in order, and the receive time of each.
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  interface Sub {
    ids: string[];
    reader: SseReader;
    done: Promise<void>;
  }
  const follow = (reader: SseReader, ids: string[], stopAt: number): Promise<void> =>
    (async () => {
      while (ids.length < stopAt) {
        const f = await reader.next(60_000);
        if (f.event === "overflow") throw new Error(`a reader was overflowed: ${f.data}`);
        ids.push(f.id!);
        const c = committedAt.get(/"mission_id":"(mis_bench\d+)"/.exec(f.data!)?.[1] ?? "");
        if (c !== undefined && latencies.length < 2_000_000) latencies.push(performance.now() - c);
      }
    })();
  const subs: Sub[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const reader = await openSse(`${base}/events?tag=${tag}`);
    if (reader.status !== 200) throw new Error(`subscriber ${i}: HTTP ${reader.status}`);
    const ids: string[] = [];
    // Resumers stop after a share of the events, then come back with Last-Event-ID.
    const stopAt = i < RESUMERS ? Math.floor((EVENTS * (i + 1)) / (RESUMERS + 1)) : EVENTS;
    subs.push({ ids, reader, done: follow(reader, ids, stopAt) });
  }
  const rssSubs = rssMb(pid);
  log(`${SUBSCRIBERS} subscribers connected; server RSS ${rssSubs} MB (idle ${rss.idle} MB)`);

  // Writers: EVENTS events in transactions of 1-5, each held open 0-4 ms, at about RATE/s.
  const started = performance.now();
  let next = 0;
  const writer = async (w: number) => {
    while (next < EVENTS) {
      const k = Math.min(EVENTS - next, 1 + Math.floor(Math.random() * 5));
      const first = next;
      next += k;
      const events: OutboxEvent[] = Array.from({ length: k }, (_, j) => ({
        type: "mission.created",
        at: new Date(),
        mission: {
          id: `mis_bench${first + j}`,
          creator: "0x" + "b".repeat(40),
          verificationType: "creator_judges",
          tags: [tag],
        },
        data: { mission_id: `mis_bench${first + j}`, n: first + j, writer: w },
      }));
      await database.db.transaction(async (tx) => {
        await emitEvents(tx, events);
        await sleep(Math.random() * 4);
      });
      const now = performance.now();
      for (const e of events) committedAt.set(e.mission.id, now);
      const due = ((first + k) / RATE) * 1000 - (performance.now() - started);
      if (due > 0) await sleep(due);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  const writeS = (performance.now() - started) / 1000;
  log(`${EVENTS} events committed in ${writeS.toFixed(1)} s`);

  // Resumers: reconnect from their last id and read the rest.
  await Promise.all(subs.slice(0, RESUMERS).map((s) => s.done));
  for (const s of subs.slice(0, RESUMERS)) {
    s.reader.close();
    const last = s.ids.at(-1)!;
    s.reader = await openSse(`${base}/events?tag=${tag}`, { "last-event-id": last });
    s.done = follow(s.reader, s.ids, EVENTS);
  }
  await Promise.all(subs.map((s) => s.done));
  const deliverS = (performance.now() - started) / 1000;

  // The truth: every committed event, in the sequencer's order.
  const truth = (
    (await database.db.execute(sql`select id from webhook_events order by seq`)) as unknown as { id: string }[]
  ).map((r) => r.id);
  let exact = 0;
  for (const s of subs) if (s.ids.length === truth.length && s.ids.every((id, i) => id === truth[i])) exact++;
  const byId = [...truth].sort();
  const notIdOrder = truth.filter((id, i) => id !== byId[i]).length;

  const rssAfterMain = rssMb(pid);

  // Phase 2, the slow reader: a raw socket that sends its request and never reads a byte, next to
  // FAST_READERS readers, while SLOW_EVENTS events of ~4 KiB commit (more than loopback's socket
  // buffers hold, and more than the ring): the fast ones get everything, the slow one is cut.
  const slowTag = "slow";
  const slow = net.connect(port, "127.0.0.1");
  slow.pause();
  let slowClosed = false;
  slow.on("close", () => (slowClosed = true));
  slow.on("error", () => {});
  slow.write(`GET /events?tag=${slowTag} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
  const fastIds: string[][] = [];
  const fastDone: Promise<void>[] = [];
  for (let i = 0; i < FAST_READERS; i++) {
    const r = await openSse(`${base}/events?tag=${slowTag}`);
    const ids: string[] = [];
    fastIds.push(ids);
    fastDone.push(follow(r, ids, SLOW_EVENTS).finally(() => r.close()));
  }
  await sleep(300);
  const pad = "x".repeat(4000);
  const slowStarted = performance.now();
  for (let i = 0; i < SLOW_EVENTS; i += 10) {
    const events: OutboxEvent[] = Array.from({ length: 10 }, (_, j) => ({
      type: "mission.created",
      at: new Date(),
      mission: {
        id: `mis_slow${i + j}`,
        creator: "0x" + "b".repeat(40),
        verificationType: "creator_judges",
        tags: [slowTag],
      },
      data: { mission_id: `mis_slow${i + j}`, pad },
    }));
    await database.db.transaction((tx) => emitEvents(tx, events));
  }
  await Promise.all(fastDone);
  const slowPhaseS = (performance.now() - slowStarted) / 1000;
  const fastOk = fastIds.filter((ids) => ids.length === SLOW_EVENTS && new Set(ids).size === SLOW_EVENTS).length;
  await sleep(7000); // the overflow frame's grace, then the cut
  let slowText = "";
  slow.on("data", (b: Buffer) => (slowText += b.toString("utf8")));
  slow.resume();
  await sleep(1500);
  const slowFrames = (slowText.match(/^id: /gm) ?? []).length;
  const slowOverflow = /event: overflow/.test(slowText);
  clearInterval(sampler);
  const after = rssMb(pid);
  const slowCut = slowClosed;
  for (const s of subs) s.reader.close();
  slow.destroy();
  await database.close();
  await stopAll();

  const lines = [
    `bench:events — ${SUBSCRIBERS} SSE subscribers, ${EVENTS} events (${WRITERS} writers, transactions of 1-5 held 0-4 ms), real Postgres, ring ${EVENTS_REPLAY}`,
    `  committed in ${writeS.toFixed(1)} s (${Math.round(EVENTS / writeS)}/s); all delivered ${deliverS.toFixed(1)} s after the first commit`,
    `  subscribers with every committed event exactly once, in commit (seq) order: ${exact}/${SUBSCRIBERS} (${RESUMERS} of them dropped and resumed with Last-Event-ID)`,
    `  events whose delivery position differs from their id order (commit order ≠ id order): ${notIdOrder}/${truth.length}`,
    `  commit → receipt latency: p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms, max ${pct(latencies, 100).toFixed(0)} ms`,
    `  server RSS: idle ${rss.idle} MB, with ${SUBSCRIBERS} subscribers ${rssSubs} MB, after phase 1 ${rssAfterMain} MB`,
    `phase 2 — a raw socket that never reads + ${FAST_READERS} readers, ${SLOW_EVENTS} events of ~4 KiB (${slowPhaseS.toFixed(1)} s):`,
    `  readers with every event once: ${fastOk}/${FAST_READERS}; the slow socket got ${slowFrames} events (what the socket buffers held), overflow frame ${slowOverflow ? "received" : "not reached"}, connection closed by the server: ${slowCut}`,
    `  server RSS: peak over the whole run ${rss.peak} MB, at the end ${after} MB`,
  ];
  console.log(lines.join("\n"));
  if (exact !== SUBSCRIBERS || fastOk !== FAST_READERS) process.exitCode = 1;
}

main().catch(async (err) => {
  console.error(err);
  await stopAll();
  process.exit(1);
});
