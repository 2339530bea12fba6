import { closeMatcher, DEFAULT_TIMEOUT_MS, matchContent, type MatchResult } from "../src/lib/safe-regex";

// `npm run bench:regex`: the wall-clock side of AIP-1 Appendix B (ReDoS), moved out of
// test/lib/safe-regex.test.ts, whose correctness assertions stay there. A busy machine makes these
// numbers worse, not wrong: run it on a quiet one. Exits 1 when a budget is exceeded.
//   - each catastrophic pattern over 1 MiB answers within 100 ms (default timeout, warm worker);
//   - the main thread keeps ticking (largest timer gap < 50 ms) while the worker matches;
//   - a match past its timeout (300 ms) is abandoned within 1 s, with > 20 main-thread ticks.

const MiB = 1024 * 1024;
const MATCH_BUDGET_MS = 100;
const GAP_BUDGET_MS = 50;
const TIMEOUT_BUDGET_MS = 1000;

/** Runs `work`, measuring its duration and the largest gap between 2 ms main-thread timer ticks. */
async function measure(
  work: () => Promise<MatchResult>,
): Promise<{ r: MatchResult; ms: number; maxGapMs: number; ticks: number }> {
  let last = performance.now();
  let maxGapMs = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    ticks++;
  }, 2);
  const t0 = performance.now();
  try {
    const r = await work();
    const ms = performance.now() - t0;
    maxGapMs = Math.max(maxGapMs, performance.now() - last);
    return { r, ms, maxGapMs, ticks };
  } finally {
    clearInterval(timer);
  }
}

const failures: string[] = [];
const row = (name: string, ms: number, gap: number, ok: boolean) =>
  console.log(
    `${ok ? "ok  " : "SLOW"} ${name.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms   max gap ${gap.toFixed(1).padStart(6)} ms`,
  );

const evil = "a".repeat(MiB - 1) + "b";
const catastrophic: [string, boolean][] = [
  ["(a+)+$", false],
  ["(a|aa)+$", false],
  ["(.*a){20}", true],
  ["^(\\w+\\s?)*$", true],
  ["^(a+)+$", false],
  ["(a|a?)+b$", true],
];

console.log(
  `ReDoS patterns on 1 MiB (default timeout ${DEFAULT_TIMEOUT_MS} ms; budgets ${MATCH_BUDGET_MS} ms, gap ${GAP_BUDGET_MS} ms)`,
);
for (const [pattern, matched] of catastrophic) {
  await matchContent("regex", pattern, evil); // warm-up: worker start, JIT, compile cache
  const m = await measure(() => matchContent("regex", pattern, evil));
  const ok = m.r.ok && m.r.matched === matched && m.ms < MATCH_BUDGET_MS && m.maxGapMs < GAP_BUDGET_MS;
  if (!ok)
    failures.push(`${pattern}: ${JSON.stringify(m.r)} in ${m.ms.toFixed(1)} ms, gap ${m.maxGapMs.toFixed(1)} ms`);
  row(pattern, m.ms, m.maxGapMs, ok);
}

// ~14 s in-process with re2js on this input: linear-time but far too slow; the worker is killed.
const bytes = new Uint8Array(MiB);
for (let i = 0, x = 12345; i < MiB; i++)
  bytes[i] = ((x = (x * 1103515245 + 12345) & 0x7fffffff) >> 8) % 2 ? 0x61 : 0x62;
const ab = Buffer.from(bytes).toString("latin1");
const slow = await measure(() => matchContent("regex", "(?:.{0,50}a){15}[^\\w\\s]", ab, { timeoutMs: 300 }));
const slowOk =
  !slow.r.ok &&
  slow.r.reason === "timeout" &&
  slow.ms < TIMEOUT_BUDGET_MS &&
  slow.maxGapMs < GAP_BUDGET_MS &&
  slow.ticks > 20;
if (!slowOk)
  failures.push(
    `timeout 300 ms: ${JSON.stringify(slow.r)} after ${slow.ms.toFixed(1)} ms, gap ${slow.maxGapMs.toFixed(1)} ms, ${slow.ticks} ticks`,
  );
row("NFA fallback, timeout 300", slow.ms, slow.maxGapMs, slowOk);

await closeMatcher();
if (failures.length) {
  console.error(`\n${failures.length} over budget:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
