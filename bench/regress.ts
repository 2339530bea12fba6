import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// Regressions caught (bench/README.md "Regressions"): bench/ratios.json keeps the last quiet run's
// ratios (each scenario against its same-run floor, so machine speed cancels out) and each
// ratio's noise; every run prints the ratios that fell by more than their noise since then.
// `BENCH_SAVE=1` on a quiet run writes the new figures; the A/B mode (bench/ab.ts) measures the
// noise itself.

export const RATIOS_FILE = path.resolve(import.meta.dirname, "ratios.json");
/** Noise assumed for a ratio with no measured spread: reads repeat within ±10 % on a quiet machine. */
export const DEFAULT_NOISE = 0.1;

export type Ratios = Record<string, number>;

export interface SavedRatios {
  date: string;
  commit: string;
  settings: string;
  ratios: Ratios;
  /** Relative noise per ratio (0.08 = ±8 %), from repeated runs (bench/ab.ts). */
  noise: Ratios;
}

export interface Regression {
  key: string;
  before: number;
  now: number;
  /** now / before − 1 (negative: fell). */
  change: number;
  noise: number;
}

/** The ratios that fell by more than their noise (a higher ratio is always better). */
export function regressions(saved: SavedRatios, now: Ratios): Regression[] {
  const out: Regression[] = [];
  for (const [key, before] of Object.entries(saved.ratios)) {
    const value = now[key];
    if (value === undefined || !Number.isFinite(value) || !(before > 0)) continue;
    const noise = saved.noise[key] ?? DEFAULT_NOISE;
    const change = value / before - 1;
    if (change < -noise) out.push({ key, before, now: value, change, noise });
  }
  return out;
}

export function formatRegressions(saved: SavedRatios, found: Regression[]): string[] {
  if (found.length === 0)
    return [`regressions since the quiet run of ${saved.date} (${saved.commit}): none beyond noise`];
  return [
    `REGRESSIONS since the quiet run of ${saved.date} (${saved.commit}):`,
    ...found.map(
      (r) =>
        `  ${r.key}: ${r.before.toFixed(2)} → ${r.now.toFixed(2)} (${(r.change * 100).toFixed(0)} %, noise ±${(r.noise * 100).toFixed(0)} %)`,
    ),
  ];
}

export function readSaved(file = RATIOS_FILE): SavedRatios | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SavedRatios) : undefined;
}

/** Writes a quiet run's ratios, keeping the noise measured before for keys that have one. */
export function save(entry: Omit<SavedRatios, "noise"> & { noise?: Ratios }, file = RATIOS_FILE): void {
  const noise = { ...(readSaved(file)?.noise ?? {}), ...(entry.noise ?? {}) };
  writeFileSync(file, `${JSON.stringify({ ...entry, noise }, null, 2)}\n`);
}
