import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { abSummary, parseRun } from "../../bench/ab";
import { DEFAULT_NOISE, formatRegressions, regressions, save, type SavedRatios } from "../../bench/regress";

// The bench's regression check (bench/regress.ts) and A/B summary (bench/ab.ts): pure functions
// over ratios; bench/README.md "Regressions" runs them for real.

const saved: SavedRatios = {
  date: "2026-12-01T00:00:00Z",
  commit: "abc1234",
  settings: "missions=10000",
  ratios: { get_mission: 0.64, list: 0.8, mcp_list_vs_rest: 0.67 },
  noise: { get_mission: 0.05 },
};

describe("regressions since the last quiet run", () => {
  it("names a ratio that fell by more than its noise, and none that fell within it", () => {
    const found = regressions(saved, { get_mission: 0.58, list: 0.75, mcp_list_vs_rest: 0.9 });
    expect(found.map((r) => r.key)).toEqual(["get_mission"]); // −9 % against ±5 %; list −6 % within ±10 %
    expect(found[0]!.change).toBeCloseTo(0.58 / 0.64 - 1);
    expect(formatRegressions(saved, found).join("\n")).toContain("get_mission: 0.64 → 0.58 (-9 %, noise ±5 %)");
  });

  it("uses the default noise where none was measured, and skips ratios the run left out", () => {
    expect(regressions(saved, { list: 0.8 * (1 - DEFAULT_NOISE) - 0.01 }).map((r) => r.key)).toEqual(["list"]);
    expect(regressions(saved, {})).toEqual([]);
    expect(formatRegressions(saved, [])).toEqual([
      "regressions since the quiet run of 2026-12-01T00:00:00Z (abc1234): none beyond noise",
    ]);
  });

  it("saves a quiet run, keeping the noise measured before", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oabp-ratios-"));
    try {
      const file = path.join(dir, "ratios.json");
      save({ ...saved }, file);
      save({ date: "2026-12-02T00:00:00Z", commit: "def5678", settings: "s", ratios: { list: 0.9 } }, file);
      const back = JSON.parse(readFileSync(file, "utf8")) as SavedRatios;
      expect(back).toMatchObject({ commit: "def5678", ratios: { list: 0.9 }, noise: { get_mission: 0.05 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the A/B summary", () => {
  it("compares medians against the larger spread of either side", () => {
    const a = [
      { get: 1.0, list: 0.5 },
      { get: 1.1, list: 0.52 },
      { get: 0.9, list: 0.48 },
    ];
    const b = [
      { get: 0.6, list: 0.51 },
      { get: 0.62, list: 0.5 },
      { get: 0.58, list: 0.49 },
    ];
    const rows = abSummary(a, b);
    const get = rows.find((r) => r.key === "get")!;
    expect(get).toMatchObject({ a: 1.0, b: 0.6, verdict: "B slower" });
    expect(get.noise).toBeCloseTo(0.1); // A's (1.1 − 0.9) / 1.0 / 2
    expect(rows.find((r) => r.key === "list")!.verdict).toBe("same within noise");
    expect(abSummary(b, a).find((r) => r.key === "get")!.verdict).toBe("B faster");
  });

  it("reads the bench-json line of a run", () => {
    expect(parseRun('x\nbench-json: {"get_mission":0.7}\nmore')).toEqual({ get_mission: 0.7 });
    expect(() => parseRun("no figures")).toThrow(/bench-json/);
  });
});
