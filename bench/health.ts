// /health during a burst (docs/operations.md "Probes"): `npm run bench:health`. Real PostgreSQL.
//
// The real server process (src/main.ts) on its defaults; 100 agents each send 4 concurrent ~1 MiB
// submissions (400 at once) while a separate reader process asks GET /health one request at a
// time until the burst is answered. Prints the probe's p50 / p99 / max and the burst's statuses.
// The figure is a measurement, not a test: it depends on the machine (bench/README.md).
//
// The database is bench/abuse-setup.ts's (BENCH_DATABASE_URL, default oabp_bench_abuse): dropped and
// recreated; its name must contain "bench".
import { spawn } from "node:child_process";
import { freshDatabase, LATENCY_READER, openMission, postSubmission, signIn, startServer } from "./abuse-setup";

const AGENTS = 100;
const EACH = 4;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

async function main() {
  await freshDatabase();
  // One machine plays 100 agents: the per-network write and sign-in buckets are lifted (as
  // bench/abuse.ts "crowd" does); the in-flight byte caps stay on their defaults.
  const { publicUrl, call, stop } = await startServer({
    OABP_RATE_LIMIT_WRITE_IP: "100000/60",
    OABP_RATE_LIMIT_WRITE_NET_AGENTS: "100000/60",
    OABP_RATE_LIMIT_SESSION_IP: "100000/60",
  });
  try {
    const missionId = await openMission(call, publicUrl);
    const agents = [];
    for (let i = 0; i < AGENTS; i++) agents.push(await signIn(call, publicUrl));
    const reader = spawn(process.execPath, ["-e", LATENCY_READER, `${publicUrl}/health`], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    reader.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const done = new Promise<void>((r) => reader.on("exit", () => r()));
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    const statuses = await Promise.all(
      agents.flatMap((a, i) =>
        Array.from({ length: EACH }, (_, j) =>
          postSubmission(
            publicUrl,
            missionId,
            a.token,
            JSON.stringify({
              content_uri: `data:application/octet-stream;base64,${Buffer.alloc(740_000, i * EACH + j).toString("base64")}`,
            }),
          ),
        ),
      ),
    );
    const ms = performance.now() - started;
    reader.stdin.end();
    await done;
    const xs = JSON.parse(out) as number[];
    const codes: Record<string, number> = {};
    for (const s of statuses) codes[s] = (codes[s] ?? 0) + 1;
    process.stdout.write(
      `health: ${AGENTS} agents × ${EACH} concurrent ~1 MiB submissions in ${ms.toFixed(0)} ms → ${JSON.stringify(codes)}; GET /health during the burst: ${xs.length} probes, p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms\n`,
    );
  } finally {
    stop();
  }
}

await main();
