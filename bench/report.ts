import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import type { Result } from "autocannon";
import { cpuModel } from "./harness";
import { formatRegressions, readSaved, regressions, save, RATIOS_FILE, type Ratios } from "./regress";
import { cfg, SERVER_DIR } from "./run-config";
import { LIST_FILTERS, type Scenario } from "./scenarios";
import { SEARCH_TERMS } from "./seed";
import type { WriteFigures } from "./writes";
import { writeLines, writeRatios, writeTableRows } from "./writes-report";

// The report of `npm run bench` (bench/README.md "What a run does", step 5): the table, the read
// rows against their floors, the summary and JSON lines, and the ratios against the last quiet run.

export interface Row {
  scenario: Scenario;
  result: Result;
  rps: number;
  /** CPU time (utime + stime, µs) the answering process spent per request in the measured window. */
  cpuUs: number;
}

export function describeFailures(r: Result): string | undefined {
  const bad: string[] = [];
  if (r.non2xx > 0) {
    const codes = Object.entries(r.statusCodeStats)
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, s]) => `${code}×${s.count}`)
      .join(", ");
    bad.push(`${r.non2xx} non-2xx (${codes})`);
  }
  if (r.errors > 0) bad.push(`${r.errors} errors (${r.timeouts} timeouts)`);
  if (r.mismatches > 0) bad.push(`${r.mismatches} body mismatches`);
  return bad.length ? bad.join("; ") : undefined;
}

function table(rows: Row[], baselineRps: number, extra: string[][] = []): string {
  const header = ["scenario", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "ratio", "CPU µs/req"];
  const body = rows.map((r) => [
    r.scenario.name,
    r.rps.toFixed(0),
    r.result.latency.p50.toFixed(0),
    r.result.latency.p99.toFixed(0),
    String(r.result.non2xx),
    String(r.result.errors),
    (r.rps / baselineRps).toFixed(2),
    Number.isFinite(r.cpuUs) ? r.cpuUs.toFixed(0) : "",
  ]);
  body.push(...extra.map((e) => (e.length < header.length ? [...e, ""] : e)));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  const sep = `|${widths.map((w, i) => (i === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(header), sep, ...body.map(line)].join("\n");
}

/**
 * The read rows of the read targets, each against its same-run floor: list pages against the
 * bare 50-row page (first, or deep for the cursor), a mission against the bare PK select, MCP
 * and the web pages against the JSON routes they answer from.
 */
function readFloorLines(rpsOf: (key: string) => number): string[] {
  const r = (a: string, b: string) => (rpsOf(a) / rpsOf(b)).toFixed(2);
  const filters = LIST_FILTERS.map((f, i) => `${f}=${r(`filter_uncached_${i + 1}`, "page_floor")}`);
  return [
    "read rows against their same-run floors (goal in brackets):",
    `  uncached list / bare 50-row page [>= 0.9]: first ${r("list_uncached", "page_floor")}, deep cursor ${r("deep_uncached", "page_floor_deep")} (vs the bare first page ${r("deep_uncached", "page_floor")}), search ${r("search_uncached", "page_floor")}, filters rotating ${r("filter_uncached", "page_floor")}`,
    `  each filter: ${filters.join(" ")}`,
    `  GET /missions/{id} / bare PK select [>= 0.9]: ${r("get_mission", "baseline")}`,
    `  MCP list_missions / REST list [>= 0.9]: ${r("mcp_list", "list")}; MCP get_mission / REST get: ${r("mcp_get", "get_mission")}`,
    `  compressed (gzip, deflate, br): GET /missions/{id} / bare PK select ${r("get_mission_br", "baseline")}, list / plain list ${r("list_br", "list")}, MCP list / REST list ${r("mcp_list_br", "list_br")}, MCP get / REST get ${r("mcp_get_br", "get_mission_br")}`,
    `  web board / JSON list [>= 0.7]: ${r("web_board", "list")}`,
    `  mission page / JSON mission [>= 0.7]: ${r("web_mission", "get_mission")}`,
    `  bare 50-row page / bare PK select: first ${r("page_floor", "baseline")}, deep ${r("page_floor_deep", "baseline")}`,
  ];
}

/** The ratios a run is judged by: each read against its floor, MCP and pages against REST, writes against the bare INSERT. */
function runRatios(rpsOf: (key: string) => number, baselineRps: number, writes?: WriteFigures): Ratios {
  const r: Ratios = {};
  for (const k of [
    "get_mission",
    "list",
    "search",
    "list_uncached",
    "search_uncached",
    "filter_uncached",
    "deep_uncached",
  ])
    r[k] = rpsOf(k) / baselineRps;
  r.mcp_list_vs_rest = rpsOf("mcp_list") / rpsOf("list");
  r.mcp_get_vs_rest = rpsOf("mcp_get") / rpsOf("get_mission");
  r.get_mission_br = rpsOf("get_mission_br") / baselineRps;
  r.mcp_list_vs_rest_br = rpsOf("mcp_list_br") / rpsOf("list_br");
  r.mcp_get_vs_rest_br = rpsOf("mcp_get_br") / rpsOf("get_mission_br");
  r.web_board_vs_list = rpsOf("web_board") / rpsOf("list");
  r.web_mission_vs_get = rpsOf("web_mission") / rpsOf("get_mission");
  if (writes)
    for (const k of ["create", "submit", "award"] as const) r[`write_${k}`] = writes[k].perSec / writes.bare.perSec;
  for (const [k, v] of Object.entries(r)) if (!Number.isFinite(v)) delete r[k]; // BENCH_ONLY left it out
  return r;
}

const serverCommit = () =>
  execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: SERVER_DIR, encoding: "utf8" }).trim();

/** What the run knew before the load: the machine, the seed, and when it started. */
export interface RunFacts {
  t0: number;
  busyAtStart: string;
  postgresVersion: string;
  ids: number;
  selectivity: Record<string, number>;
}

/** The report's lines, and whether the run failed (a non-2xx, an error, a write check). */
export function report(
  facts: RunFacts,
  rows: Row[],
  writes: WriteFigures | undefined,
): { out: string[]; failed: boolean } {
  const baselineRps = rows[0]!.rps;
  const rpsOf = (key: string) => rows.find((r) => r.scenario.key === key)?.rps ?? NaN;
  const ratio = (key: string) => (rpsOf(key) / baselineRps).toFixed(2);
  const failures = rows.flatMap((r) => {
    const bad = describeFailures(r.result);
    return bad ? [`${r.scenario.name}: ${bad}`] : [];
  });

  const out: string[] = [];
  out.push("");
  out.push(`date: ${new Date().toISOString()}`);
  out.push(
    `machine: nproc=${os.availableParallelism?.() ?? os.cpus().length}, cpu="${cpuModel()}", node ${process.version}, postgres ${facts.postgresVersion}, CPU busy before start ${facts.busyAtStart}`,
  );
  out.push(
    `settings: missions=${cfg.missions}, connections=${cfg.connections}, duration=${cfg.duration}s, warmup=${cfg.warmup}s, pool=${cfg.poolMax}, ids=${facts.ids}${cfg.quick ? ", quick" : ""}`,
  );
  out.push(
    `search terms (open missions matched): ${SEARCH_TERMS.map((t) => `${t}=${facts.selectivity[t]}`).join(", ")}`,
  );
  out.push("");
  out.push(table(rows, baselineRps, writes && writeTableRows(writes)));
  out.push("");
  out.push(...readFloorLines(rpsOf), "");
  if (writes) out.push(...writeLines(writes), "");
  if (writes && !writes.ok) failures.push(`writes: ${writes.check}`);
  for (const f of failures) out.push(`FAIL ${f}`);
  out.push(`total time: ${((performance.now() - facts.t0) / 1000).toFixed(1)} s`);
  // mcp_*_vs_rest: an MCP tools/call against the equivalent REST call (design target ≥ 0.7).
  out.push(
    `bench: get_mission=${ratio("get_mission")} list=${ratio("list")} search=${ratio("search")} list_uncached=${ratio("list_uncached")} search_uncached=${ratio("search_uncached")} filter_uncached=${ratio("filter_uncached")} deep_uncached=${ratio("deep_uncached")} mcp_list_vs_rest=${(rpsOf("mcp_list") / rpsOf("list")).toFixed(2)} mcp_get_vs_rest=${(rpsOf("mcp_get") / rpsOf("get_mission")).toFixed(2)} web_board_vs_list=${(rpsOf("web_board") / rpsOf("list")).toFixed(2)} web_mission_vs_get=${(rpsOf("web_mission") / rpsOf("get_mission")).toFixed(2)}`,
  );
  if (writes) out.push(`bench-writes (vs the same-run bare INSERT): ${writeRatios(writes)}`);
  // Every ratio as one JSON line (bench/ab.ts reads it), then against the last quiet run.
  const ratios = runRatios(rpsOf, baselineRps, writes);
  out.push(`bench-json: ${JSON.stringify(ratios)}`);
  const saved = readSaved();
  if (saved) out.push(...formatRegressions(saved, regressions(saved, ratios)));
  if (process.env.BENCH_SAVE === "1") {
    const settings = `missions=${cfg.missions}, connections=${cfg.connections}, duration=${cfg.duration}s, pool=${cfg.poolMax}`;
    save({ date: new Date().toISOString(), commit: serverCommit(), settings, ratios });
    out.push(`saved as the quiet run: ${path.relative(process.cwd(), RATIOS_FILE)}`);
  }
  return { out, failed: failures.length > 0 };
}
