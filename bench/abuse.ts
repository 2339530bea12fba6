// And edge bench figures (docs/abuse.md): `npm run bench:abuse`. Real PostgreSQL.
//
// checks (docs/abuse.md "Resolver"): 75 submissions whose names never resolve (a real
//   local UDP DNS server that swallows their queries, reached through OABP_DNS_SERVERS by the
//   production c-ares resolver), then one honest deliverable on a loopback server: wall time from
//   the start of the check loop until the honest one is checked, with the default pipeline
//   settings (32 workers, 2 s DNS+connect, 1.5 s DNS, 2 per host). Two shapes: 75 subdomains of
//   one domain; 75 names over 10 domains.
// memory: the real server process (src/main.ts); 400 concurrent identical ~1 MiB
//   submissions from one agent; peak RSS of the server (VmHWM) before and after.
// crowd — 200 agents × 4 concurrent ~1 MiB submissions against the process-wide in-flight cap;
//   server RSS before / peak / after and the p99 of honest reads during the flood.
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/oabp_bench_abuse) is dropped and
// recreated; it must contain "bench".
import { checksScenario } from "./abuse-checks";
import { crowdScenario, inboxScenario, memoryScenario } from "./abuse-floods";

// Set-up in bench/abuse-setup.ts; the scenarios in bench/abuse-checks.ts and bench/abuse-floods.ts.
// BENCH_SCENARIO=checks|memory|crowd|inbox runs one.
const fmt = (n: number) => n.toFixed(0);
const only = process.env.BENCH_SCENARIO;
if (!only || only === "checks") {
  for (const shape of ["one_domain", "ten_domains"] as const) {
    const ms = await checksScenario(shape);
    console.log(
      `checks/${shape}: honest deliverable checked ${ms ? `after ${fmt(ms)} ms` : "NOT within 120 s"} behind 75 never-resolving names (real DNS server, c-ares)`,
    );
  }
}
if (!only || only === "memory") {
  const m = await memoryScenario();
  console.log(
    `memory: ${m.n} concurrent identical ${fmt(m.bodyBytes / 1024)} KiB submissions from one agent in ${fmt(m.ms)} ms → 201×${m.s201} 409×${m.s409} 429×${m.s429} 503×${m.s503} other×${m.other}; server peak RSS ${fmt(m.beforeMb)} → ${fmt(m.peakMb)} MB (+${fmt(m.deltaMb)} MB)`,
  );
}
if (!only || only === "crowd") {
  const m = await crowdScenario();
  console.log(
    `crowd: 200 agents × 4 concurrent ${fmt(m.bodyBytes / 1024)} KiB submissions (${m.n}) in ${fmt(m.ms)} ms → ${JSON.stringify(m.codes)}; server RSS ${fmt(m.rssBeforeMb)} MB before, peak ${fmt(m.peakMb)} MB (+${fmt(m.deltaMb)} MB), ${fmt(m.rssAfterMb)} MB after; peak request bytes in flight ${m.peakInflightMb.toFixed(1)} MiB; honest GET /missions/{id} during the flood: ${m.reads} reads, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, max ${m.maxRead.toFixed(1)} ms`,
  );
}
if (!only || only === "inbox") {
  const m = await inboxScenario();
  console.log(
    `inbox: honest GET /missions/{id} p50 idle ${m.idleP50.toFixed(1)} ms → ${m.burstP50.toFixed(1)} ms (×${(m.burstP50 / m.idleP50).toFixed(2)}) in the flood's burst (agent's read bucket full), ${m.steadyP50.toFixed(1)} ms (×${(m.steadyP50 / m.idleP50).toFixed(2)}) once its bucket is spent, while one agent keeps 50 inbox reads in flight; its answers ${JSON.stringify(m.codes)}; idle again after the flood ${m.afterP50.toFixed(1)} ms`,
  );
}
process.exit(0);
