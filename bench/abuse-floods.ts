// The flood scenarios of bench/abuse.ts, each against the real server process: many large
// submissions at once from one agent (memory) and from a crowd (in-flight bytes), and an inbox
// flood beside honest reads.
import { spawn } from "node:child_process";
import {
  freshDatabase,
  LATENCY_READER,
  openMission,
  peakRssMb,
  postSubmission,
  signIn,
  startServer,
} from "./abuse-setup";

/**
 * Memory (docs/abuse.md "Bounded responses and memory"): the real server process; 400 concurrent identical ~1 MiB submissions
 * from one agent; peak RSS of the server (VmHWM) before and after.
 */
export async function memoryScenario(n = 400) {
  await freshDatabase();
  const server = await startServer();
  const { publicUrl, call } = server;
  try {
    const missionId = await openMission(call, publicUrl);
    const agent = await signIn(call, publicUrl);
    const before = peakRssMb(server.pid);
    const body = JSON.stringify({
      content_uri: `data:application/octet-stream;base64,${Buffer.alloc(740_000, 7).toString("base64")}`,
    });
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: n }, () => postSubmission(publicUrl, missionId, agent.token, body)),
    );
    const ms = performance.now() - started;
    const after = peakRssMb(server.pid);
    const count = (s: number) => statuses.filter((x) => x === s).length;
    return {
      n,
      bodyBytes: body.length,
      beforeMb: before.hwm,
      peakMb: after.hwm,
      deltaMb: after.hwm - before.hwm,
      ms,
      s201: count(201),
      s409: count(409),
      s429: count(429),
      s503: count(503),
      other: statuses.filter((s) => ![201, 409, 429, 503].includes(s)).length,
    };
  } finally {
    server.stop();
  }
}

/**
 * In-flight request bytes (docs/abuse.md "In-flight request bytes"): the real server process on its defaults
 * (the process cap 16 MiB, 4 MiB per caller); 200 agents each send 4 concurrent ~1 MiB
 * submissions (800 at once) while an honest reader reads GET /missions/{id} one at a time until the
 * flood is answered. RSS of the server before, its peak (VmHWM), the honest reads' p99, and the
 * peak bytes admitted from the exported gauge.
 */
export async function crowdScenario(agents = 200, each = 4) {
  await freshDatabase();
  const metricsToken = "bench-metrics-token-0123456789abcdef";
  const server = await startServer({
    OABP_METRICS_TOKEN: metricsToken,
    // 200 sign-ins and their writes come from one address here (many in the attack): room for them.
    OABP_RATE_LIMIT_WRITE_IP: "100000/60",
    OABP_RATE_LIMIT_WRITE_NET_AGENTS: "100000/60",
    OABP_RATE_LIMIT_SESSION_IP: "100000/60",
  });
  const { publicUrl, call } = server;
  try {
    const missionId = await openMission(call, publicUrl);
    const crowd: { token: string }[] = [];
    for (let i = 0; i < agents; i++) crowd.push(await signIn(call, publicUrl));
    // One body per slot (4 distinct deliverables, ~0.94 MiB each); the client keeps 4 strings.
    const bodies = Array.from({ length: each }, (_, k) =>
      JSON.stringify({
        content_uri: `data:application/octet-stream;base64,${Buffer.alloc(740_000, k + 1).toString("base64")}`,
      }),
    );
    const before = peakRssMb(server.pid);
    // The honest reader is its own process: in this one, 800 uploads would delay its own reads.
    const reader = spawn(process.execPath, ["-e", LATENCY_READER, `${publicUrl}/missions/${missionId}`], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    reader.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const readerDone = new Promise<void>((r) => reader.on("exit", () => r()));
    const started = performance.now();
    const statuses = await Promise.all(
      crowd.flatMap((a) => bodies.map((body) => postSubmission(publicUrl, missionId, a.token, body))),
    );
    const ms = performance.now() - started;
    reader.stdin.end();
    await readerDone;
    const reads = JSON.parse(out) as number[];
    const after = peakRssMb(server.pid);
    const scrape = await (
      await fetch(`${publicUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(scrape)?.[1] ?? NaN);
    const sorted = [...reads].sort((a, b) => a - b);
    const codes = new Map<number, number>();
    for (const s of statuses) codes.set(s, (codes.get(s) ?? 0) + 1);
    return {
      n: statuses.length,
      bodyBytes: bodies[0]!.length,
      rssBeforeMb: before.rss,
      peakMb: after.hwm,
      rssAfterMb: after.rss,
      deltaMb: after.hwm - before.rss,
      ms,
      reads: reads.length,
      p50: sorted[Math.floor(sorted.length / 2)]!,
      p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!,
      maxRead: sorted[sorted.length - 1]!,
      peakInflightMb: gauge("oabp_request_bytes_in_flight_peak") / (1024 * 1024),
      codes: Object.fromEntries(codes),
    };
  } finally {
    server.stop();
  }
}

/**
 * Honest reads under a flood (docs/abuse-edge.md "Read limits", docs/events.md "Inbox"): the real server process
 * on its defaults; 300 missions of other creators (events in the outbox); honest reads
 * (GET /missions/{id}, one at a time) idle, then while one agent keeps 50 inbox reads in flight.
 */
export async function inboxScenario(samples = 300) {
  await freshDatabase();
  const server = await startServer({
    // Set-up writes and sign-ins come from one address: room for them (reads keep their defaults).
    OABP_RATE_LIMIT_WRITE_IP: "100000/60",
    OABP_RATE_LIMIT_WRITE_AGENT: "100000/60",
    OABP_RATE_LIMIT_WRITE_NET_AGENTS: "100000/60",
    OABP_RATE_LIMIT_SESSION_IP: "100000/60",
  });
  const { publicUrl, call } = server;
  try {
    let missionId = "";
    for (let i = 0; i < 300; i++) missionId = await openMission(call, publicUrl);
    const attacker = await signIn(call, publicUrl);
    const read = async () => {
      const t0 = performance.now();
      const r = await fetch(`${publicUrl}/missions/${missionId}`);
      await r.arrayBuffer();
      return performance.now() - t0;
    };
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const idle: number[] = [];
    for (let i = 0; i < samples; i++) idle.push(await read());
    let stop = false;
    const codes = new Map<string, number>();
    const flood = async () => {
      while (!stop) {
        const r = await fetch(`${publicUrl}/agents/me/inbox?limit=100`, {
          headers: { authorization: `Bearer ${attacker.token}` },
        }).catch(() => undefined);
        const status = r?.status ?? 0;
        const reason = status === 429 ? ((await r!.json().catch(() => undefined)) as any)?.details?.reason : undefined;
        if (status !== 429) await r?.arrayBuffer();
        const key = reason ? `429 ${reason}` : String(status);
        codes.set(key, (codes.get(key) ?? 0) + 1);
      }
    };
    const flooders = Array.from({ length: 50 }, flood);
    // Burst: the flood's first seconds, while the agent still spends its full read bucket.
    const burst: number[] = [];
    for (let i = 0; i < samples; i++) burst.push(await read());
    // Steady state: once the agent's bucket is spent (its first token refusal), the flood goes on.
    for (let i = 0; i < 1200 && !codes.has("429 rate_limited"); i++) await new Promise((r) => setTimeout(r, 100));
    const steady: number[] = [];
    for (let i = 0; i < samples; i++) steady.push(await read());
    stop = true;
    await Promise.all(flooders);
    // Idle again after the flood: the spread between the two idle figures is the machine's noise.
    const after: number[] = [];
    for (let i = 0; i < samples; i++) after.push(await read());
    return {
      idleP50: p50(idle),
      afterP50: p50(after),
      burstP50: p50(burst),
      steadyP50: p50(steady),
      codes: Object.fromEntries(codes),
    };
  } finally {
    server.stop();
  }
}
