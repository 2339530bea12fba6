import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

// "Feature surfaces": other code reaches a feature only through its
// index.ts, lib/ http/ db/ import no feature, and no two features import each other (the
// feature graph is a DAG). ESLint enforces the import rule (eslint.config.js);
// scripts/feature-graph.mjs checks the whole graph.

const ROOT = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
// Only the boundary rule: the full lint is `npm run lint` (CI); this keeps the test quick.
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === "no-restricted-imports" });
const BOUNDARY = "no-restricted-imports";

async function boundaryErrors(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return result!.messages.filter((m) => m.ruleId === BOUNDARY).map((m) => m.message);
}

async function graph(srcDir: string) {
  const out = await run(process.execPath, [join(ROOT, "scripts/feature-graph.mjs"), "--json", srcDir], {
    cwd: ROOT,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
  );
  return {
    code: out.code,
    report: JSON.parse(out.stdout) as {
      edges: number;
      deep_imports: unknown[];
      mutual_pairs: string[][];
      cycles: string[][];
      upward_imports: unknown[];
      deps_circle: string[];
    },
  };
}

describe("feature boundaries", () => {
  it("the lint rule reports 0 boundary violations in src/", async () => {
    const results = await eslint.lintFiles(["src"]);
    const violations = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === BOUNDARY).map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(violations).toEqual([]);
  }, 120_000);

  it("the lint rule fails a planted deep import, an upward import and a deep import from app code", async () => {
    const deep = 'import { getMission } from "../missions/missions.read";\nexport const f = getMission;\n';
    expect(await boundaryErrors(deep, "src/features/claims/planted.ts")).toHaveLength(1);
    expect(
      await boundaryErrors(
        'import type { MissionWire } from "../missions/missions.schemas";\nexport type W = MissionWire;\n',
        "src/features/claims/planted.ts",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'import { missionsRouter } from "../features/missions";\nexport const r = missionsRouter;\n',
        "src/lib/planted.ts",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'import { missionsRouter } from "./features/missions/missions.index";\nexport const r = missionsRouter;\n',
        "src/planted.ts",
      ),
    ).toHaveLength(1);
    // Allowed: a feature's index, lower layers, the feature's own files.
    const fine =
      'import { missionsRouter } from "../missions";\nimport { AppError } from "../../lib/errors";\nimport { listClaims } from "./claims.service";\nexport const all = [missionsRouter, AppError, listClaims];\n';
    expect(await boundaryErrors(fine, "src/features/claims/planted.ts")).toEqual([]);
  }, 60_000);

  it("the feature graph of src/ has 0 deep imports, 0 mutual pairs, 0 cycles, 0 upward imports", async () => {
    const { code, report } = await graph("src");
    expect(report.deep_imports).toEqual([]);
    expect(report.mutual_pairs).toEqual([]);
    expect(report.cycles).toEqual([]);
    expect(report.upward_imports).toEqual([]);
    expect(report.deps_circle).toEqual([]);
    expect(report.edges).toBeGreaterThan(0);
    expect(code).toBe(0);
  });

  const fixture = mkdtempSync(join(tmpdir(), "feature-graph-"));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(fixture, rel)), { recursive: true });
    writeFileSync(join(fixture, rel), text);
  };

  it("the graph script fails on planted mutual imports, a cycle, a deep import and an upward import", async () => {
    write("features/a/index.ts", 'export { a } from "./a.service";\n');
    write("features/a/a.service.ts", 'import { b } from "../b";\nexport const a = () => b;\n');
    write("features/b/index.ts", 'export { b } from "./b.service";\n');
    write(
      "features/b/b.service.ts",
      'import { a } from "../a";\nimport { c } from "../c/c.service";\nexport const b = () => [a, c];\n',
    );
    write("features/c/index.ts", 'export { c } from "./c.service";\n');
    write(
      "features/c/c.service.ts",
      'import type { a } from "../a";\nexport const c = 1;\nexport type A = typeof a;\n',
    );
    write("lib/util.ts", 'import { c } from "../features/c";\nexport const u = c;\n');
    const { code, report } = await graph(fixture);
    expect(code).toBe(1);
    expect(report.mutual_pairs).toEqual([["a", "b"]]);
    expect(report.cycles).toEqual([["a", "b", "c"]]);
    expect(report.deep_imports).toEqual([
      { file: join("features", "b", "b.service.ts"), spec: "../c/c.service", feature: "c" },
    ]);
    expect(report.upward_imports).toEqual([{ file: join("lib", "util.ts"), spec: "../features/c", feature: "c" }]);
  });

  it("the graph script fails on a type-only circle of files through deps.ts", async () => {
    const circle = mkdtempSync(join(tmpdir(), "deps-circle-"));
    const put = (rel: string, text: string) => {
      mkdirSync(dirname(join(circle, rel)), { recursive: true });
      writeFileSync(join(circle, rel), text);
    };
    // deps.ts names a feature's type; the feature reads rows from db/, and db/ names Deps.
    put("deps.ts", 'import type { Signer } from "./features/p";\nexport interface Deps { s: Signer }\n');
    put("features/p/index.ts", 'export type { Signer } from "./p.key";\nexport { rows } from "./p.service";\n');
    put("features/p/p.key.ts", "export interface Signer { address: string }\n");
    put("features/p/p.service.ts", 'import { rowsOf } from "../../db/rows";\nexport const rows = rowsOf;\n');
    put("db/rows.ts", 'import type { Deps } from "../deps";\nexport const rowsOf = (d: Deps) => d;\n');
    try {
      const { code, report } = await graph(circle);
      expect(code).toBe(1);
      expect(report.deps_circle).toEqual([
        join("db", "rows.ts"),
        "deps.ts",
        join("features", "p", "index.ts"),
        join("features", "p", "p.service.ts"),
      ]);
    } finally {
      rmSync(circle, { recursive: true, force: true });
    }
  });
});
