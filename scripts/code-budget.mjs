#!/usr/bin/env node
// The code budget (docs/architecture.md "Where a rule lives"): counts that may only go down —
// `as` casts per 1,000 lines of src/ (`as const` is not a cast), non-null assertions (`x!`), the
// exports nothing imports (knip's "unused exports" and "unused exported types"; goal 0), the
// functions over 80 lines or cyclomatic complexity 15 (ESLint's max-lines-per-function and
// complexity; the goal is none, outside the generated ABIs in src/lib/abi/), the functions that
// take more than four positional parameters (ESLint's max-params; the verb shape is `(ctx, input)`,
// docs/architecture.md "The verb and its context"), the exported functions of src/features/ over
// two parameters or with a parameter named `now` (same section), the settings (the table's parts, src/env.settings.<area>.ts; goal ≤ 100,
// docs/configuration.md "Decisions"), the hand-written files over 400 lines (goal 0), the
// `duplicates` pairs in test/ (goal ≤ 80) and README.md's lines (goal ≤ 250); `--top` lists the
// casts and the functions. Prints each figure as "name: value (limit N, goal G)"; fails when one
// is above .code-budget.json. `npm run budget` (CI); `--write` records the current figures as the
// new budget (only after lowering them).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUDGET_FILE = path.join(ROOT, ".code-budget.json");

function* sources(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) yield p;
  }
}

/** Casts, non-null assertions and lines of the TypeScript under src/. */
export function measure(srcDir = path.join(ROOT, "src")) {
  let casts = 0;
  let nonNull = 0;
  let lines = 0;
  const perFile = [];
  for (const file of sources(srcDir)) {
    const text = readFileSync(file, "utf8");
    lines += text.split("\n").length;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith("x") ? 4 : 3);
    let c = 0;
    let n = 0;
    const visit = (node) => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
        const t = node.type;
        const isConst = ts.isTypeReferenceNode(t) && t.typeName.getText(sf) === "const";
        if (!isConst) c++;
      } else if (ts.isNonNullExpression(node)) n++;
      ts.forEachChild(node, visit);
    };
    visit(sf);
    casts += c;
    nonNull += n;
    if (c + n > 0) perFile.push({ file: path.relative(ROOT, file), casts: c, nonNull: n });
  }
  return { lines, casts, castsPerKloc: Number(((casts / lines) * 1000).toFixed(2)), nonNull, perFile };
}

/**
 * The exported functions of src/features/ (the browser client apart: its own program) that take
 * more than two parameters (`wide`) or one named `now` (`withNow`): `file:line name(params)`.
 * An exported function is `export function f` or `export const f = (…) => …` / `function (…)`.
 */
export function featureSignatures(featuresDir = path.join(ROOT, "src", "features")) {
  const wide = [];
  const withNow = [];
  const client = path.join(featuresDir, "web", "client");
  for (const file of sources(featuresDir)) {
    if (file.startsWith(client + path.sep)) continue;
    const sf = ts.createSourceFile(
      file,
      readFileSync(file, "utf8"),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith("x") ? 4 : 3,
    );
    const exported = (n) => n.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const fns = [];
    for (const st of sf.statements) {
      if (ts.isFunctionDeclaration(st) && exported(st) && st.name) fns.push([st.name.text, st]);
      if (ts.isVariableStatement(st) && exported(st))
        for (const d of st.declarationList.declarations) {
          const f = d.initializer;
          if (f && (ts.isArrowFunction(f) || ts.isFunctionExpression(f))) fns.push([d.name.getText(sf), f]);
        }
    }
    for (const [name, f] of fns) {
      const params = f.parameters.filter((p) => p.name.getText(sf) !== "this");
      const names = params.map((p) => (ts.isIdentifier(p.name) ? p.name.text : "{…}"));
      const where = `${path.relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(f.getStart(sf)).line + 1} ${name}(${names.join(", ")})`;
      if (params.length > 2) wide.push(where);
      if (names.includes("now")) withNow.push(where);
    }
  }
  return { wide, withNow };
}

/**
 * knip's unused exports and exported types, the whole project (knip.json). knip exits 1 when it
 * finds anything, so its exit code says nothing: its JSON on stdout is the answer, and output that
 * is not JSON is knip's complaint, which fails the budget with its message.
 */
function unusedExports() {
  const run = spawnSync(process.execPath, [path.join(ROOT, "node_modules/knip/bin/knip.js"), "--reporter", "json"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    const complaint = `${run.stderr ?? ""}${run.stdout ?? ""}`.trim() || run.error?.message || `exit ${run.status}`;
    throw new Error(`knip did not report JSON: ${complaint}`);
  }
  return report.issues.reduce((n, i) => n + (i.exports?.length ?? 0) + (i.types?.length ?? 0), 0);
}

/** The settings: the entries of the settings table's parts, src/env.settings.<area>.ts (two-space indented names). */
function settingsCount() {
  const parts = readdirSync(path.join(ROOT, "src")).filter((f) => /^env\.settings\.[a-z]+\.ts$/.test(f));
  return parts.reduce((n, f) => {
    const text = readFileSync(path.join(ROOT, "src", f), "utf8");
    const start = text.indexOf("_SETTINGS = {");
    if (start < 0) return n;
    const table = text.slice(start, text.indexOf("} as const satisfies", start));
    return n + (table.match(/^ {2}[A-Z][A-Z0-9_]*: \{/gm) ?? []).length;
  }, 0);
}

/** Generated files, never counted as hand-written. */
const GENERATED = ["src/lib/abi/", "packages/client/src/generated/", "openapi.json"];
const LONG_FILE_LINES = 400;

/** Hand-written source files over LONG_FILE_LINES lines, under src/, test/, bench/, scripts/ and packages/client/src. */
function longFiles() {
  const out = [];
  const walk = function* (dir) {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules") yield* walk(p);
      } else if (/\.(tsx?|mjs|cjs|js)$/.test(e.name)) yield p;
    }
  };
  for (const root of ["src", "test", "bench", "scripts", "packages/client/src"])
    for (const file of walk(path.join(ROOT, root))) {
      const rel = path.relative(ROOT, file).split(path.sep).join("/");
      if (GENERATED.some((g) => rel.startsWith(g) || rel.endsWith(g))) continue;
      const n = readFileSync(file, "utf8").split("\n").length;
      if (n > LONG_FILE_LINES) out.push({ file: rel, lines: n });
    }
  return out.sort((a, b) => b.lines - a.lines);
}

/** `duplicates` pairs in test/ (the first line of `duplicates --repo test --most 1`); null when it is not installed. */
function duplicatePairs() {
  const run = spawnSync("duplicates", ["--repo", "test", "--most", "1"], { cwd: ROOT, encoding: "utf8" });
  if (run.error || run.status !== 0) return null;
  const m = /^(\d+) pairs/.exec(run.stdout);
  return m ? Number(m[1]) : null;
}

/**
 * The functions in src/ over the size rule (`oversized`) and over four positional parameters
 * (`manyParams`): `file:line message` per function and rule.
 */
async function functionShapes() {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: {
      rules: {
        "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
        complexity: ["error", 15],
        "max-params": ["error", 4],
      },
    },
  });
  const results = await eslint.lintFiles(["src/**/*.{ts,tsx}"]);
  const pick = (rules) =>
    results.flatMap((r) =>
      r.messages
        .filter((m) => rules.includes(m.ruleId))
        .map((m) => `${path.relative(ROOT, r.filePath)}:${m.line} ${m.message}`),
    );
  return { oversized: pick(["max-lines-per-function", "complexity"]), manyParams: pick(["max-params"]) };
}

/** Where each figure should end up (the limit is .code-budget.json, which may only go down). */
const GOALS = {
  castsPerKloc: 0,
  nonNull: 0,
  unusedExports: 0,
  oversizedFunctions: 0,
  manyParams: 0,
  featureFunctionsOverTwoParams: 0,
  featureFunctionsWithNow: 0,
  settings: 100,
  longFiles: 0,
  testDuplicatePairs: 80,
  readmeLines: 250,
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = measure();
  const { oversized, manyParams } = await functionShapes();
  const { wide, withNow } = featureSignatures();
  const long = longFiles();
  const pairs = duplicatePairs();
  const now = {
    castsPerKloc: m.castsPerKloc,
    nonNull: m.nonNull,
    unusedExports: unusedExports(),
    oversizedFunctions: oversized.length,
    manyParams: manyParams.length,
    featureFunctionsOverTwoParams: wide.length,
    featureFunctionsWithNow: withNow.length,
    settings: settingsCount(),
    longFiles: long.length,
    readmeLines: readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length - 1,
  };
  if (pairs !== null) now.testDuplicatePairs = pairs;
  if (process.argv.includes("--top")) {
    for (const f of m.perFile.sort((a, b) => b.casts + b.nonNull - a.casts - a.nonNull).slice(0, 25))
      console.log(`${String(f.casts).padStart(4)} as ${String(f.nonNull).padStart(4)} !  ${f.file}`);
    for (const o of oversized) console.log(`oversized: ${o}`);
    for (const o of manyParams) console.log(`params: ${o}`);
    for (const o of wide) console.log(`feature, over two parameters: ${o}`);
    for (const o of withNow) console.log(`feature, \`now\` parameter: ${o}`);
    for (const f of long) console.log(`long file: ${f.file} ${f.lines} lines`);
  }
  console.log(`src/: ${m.lines} lines, ${m.casts} \`as\` casts`);
  if (process.argv.includes("--write")) {
    const previous = JSON.parse(readFileSync(BUDGET_FILE, "utf8"));
    // Not measured here (no `duplicates`): keep the recorded limit.
    const next = { ...now };
    if (pairs === null && previous.testDuplicatePairs !== undefined)
      next.testDuplicatePairs = previous.testDuplicatePairs;
    writeFileSync(BUDGET_FILE, `${JSON.stringify(next, null, 2)}\n`);
    console.log(`wrote ${path.relative(ROOT, BUDGET_FILE)}`);
    process.exit(0);
  }
  const budget = JSON.parse(readFileSync(BUDGET_FILE, "utf8"));
  for (const k of Object.keys(GOALS)) {
    const value = k === "testDuplicatePairs" && pairs === null ? "not measured" : now[k];
    console.log(`${k}: ${value} (limit ${budget[k] ?? "none"}, goal ${GOALS[k]})`);
  }
  const over = Object.keys(budget).filter((k) => now[k] !== undefined && now[k] > budget[k]);
  for (const k of over) console.error(`over budget: ${k} ${now[k]} > ${budget[k]} (.code-budget.json)`);
  const under = Object.keys(budget).filter((k) => now[k] !== undefined && now[k] < budget[k]);
  if (under.length > 0 && over.length === 0)
    console.log(`under budget (${under.join(", ")}): lower .code-budget.json with \`npm run budget -- --write\``);
  process.exit(over.length > 0 ? 1 : 0);
}
