// How bench/writes.ts's figures are printed: lines for the log and the README, rows of the
// bench's summary table (bench/run.ts) and the one-line ratios.
import type { WriteFigures, WriteStep } from "./writes";

/** One line per step: its rate, the ratio to the same-run bare INSERT, latencies. */
export function writeLines(f: WriteFigures): string[] {
  const line = (k: string, v: WriteStep) =>
    `${k}: ${v.perSec.toFixed(0)}/s = ${(v.perSec / f.bare.perSec).toFixed(2)}× bare INSERT (n=${v.n}, p50 ${v.p50.toFixed(0)} ms, p99 ${v.p99.toFixed(0)} ms)`;
  return [
    `writes (${f.writers} concurrent agents; floor: bare INSERT ${f.bare.perSec.toFixed(0)}/s, n=${f.bare.n}, p50 ${f.bare.p50.toFixed(0)} ms)`,
    line("  create", f.create),
    line("  submit", f.submit),
    line("  award ", f.award),
    ...cpuLines(f),
    `  ${f.check}`,
  ];
}

/**
 * CPU per write beside the bare INSERT's (app process + local Postgres): how many times the bare
 * INSERT's CPU a write costs, and the rate one core of the app process's CPU allows — the app is
 * one Node process, so when it is saturated that rate bounds the write's (bench/README.md "Writes").
 */
function cpuLines(f: WriteFigures): string[] {
  const floor = f.bare.cpu;
  if (!floor) return [];
  const total = (c: { app: number; db: number }) => c.app + c.db;
  const one = (k: string, v: WriteStep) =>
    v.cpu
      ? `  ${k}: ${v.cpu.app.toFixed(2)} + ${v.cpu.db.toFixed(2)} ms = ${(total(v.cpu) / total(floor)).toFixed(0)}× the bare INSERT's; one core of app CPU allows ≤ ${(1000 / v.cpu.app).toFixed(0)}/s`
      : `  ${k}: ?`;
  return [
    `  CPU per write, app + Postgres (bare INSERT: ${floor.app.toFixed(2)} + ${floor.db.toFixed(2)} ms):`,
    one("create", f.create),
    one("submit", f.submit),
    one("award ", f.award),
  ];
}

/**
 * The write steps as rows of the bench's summary table (bench/run.ts): scenario, req/s, p50, p99,
 * non-2xx, errors, ratio, the ratio against the same-run bare INSERT (a failed write stops its
 * writer and fails the run, so the error columns are always 0).
 */
export function writeTableRows(f: WriteFigures): string[][] {
  const row = (name: string, v: WriteStep) => [
    name,
    v.perSec.toFixed(0),
    v.p50.toFixed(0),
    v.p99.toFixed(0),
    "0",
    "0",
    (v.perSec / f.bare.perSec).toFixed(2),
  ];
  return [
    row(`write floor: bare INSERT (${f.writers} writers)`, f.bare),
    row("create mission / bare INSERT", f.create),
    row("submission / bare INSERT", f.submit),
    row("award / bare INSERT", f.award),
  ];
}

export const writeRatios = (f: WriteFigures) =>
  `create=${(f.create.perSec / f.bare.perSec).toFixed(2)} submit=${(f.submit.perSec / f.bare.perSec).toFixed(2)} award=${(f.award.perSec / f.bare.perSec).toFixed(2)}`;
