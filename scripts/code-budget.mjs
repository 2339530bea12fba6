#!/usr/bin/env node
// The code budget (docs/decisions/engineering.md "Rules as checks"): counts in src/ that may only go down —
// `as` casts per 1,000 lines (`as const` is not a cast), non-null assertions (`x!`), the
// exports nothing imports (knip's "unused exports" and "unused exported types"), and the functions
// over 80 lines or cyclomatic complexity 15 (ESLint's max-lines-per-function and complexity; the
// goal is none, outside the generated ABIs in src/lib/abi/), and the functions that take more than
// four positional parameters (ESLint's max-params; the verb shape is `(ctx, input)`, docs/
// architecture.md "The verb and its context"); and, in src/features/, the exported functions that
// take more than two parameters or a parameter named `now` (the engine's shape is `(ctx, input)`
// too, and the instant lives in the context: same section); `--top` lists them all. Prints the
// figures; fails when one is above .code-budget.json. `npm run budget` (CI); `--write` records
// the current figures as the new budget (only after lowering them).
import { execFileSync } from "node:child_process";
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

/** knip's unused exports and exported types, the whole project (knip.json). */
function unusedExports() {
  const out = execFileSync(process.execPath, [path.join(ROOT, "node_modules/knip/bin/knip.js"), "--reporter", "json"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const { issues } = JSON.parse(out);
  return issues.reduce((n, i) => n + i.exports.length + i.types.length, 0);
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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = measure();
  const { oversized, manyParams } = await functionShapes();
  const { wide, withNow } = featureSignatures();
  const now = {
    castsPerKloc: m.castsPerKloc,
    nonNull: m.nonNull,
    unusedExports: unusedExports(),
    oversizedFunctions: oversized.length,
    manyParams: manyParams.length,
    featureFunctionsOverTwoParams: wide.length,
    featureFunctionsWithNow: withNow.length,
  };
  if (process.argv.includes("--top")) {
    for (const f of m.perFile.sort((a, b) => b.casts + b.nonNull - a.casts - a.nonNull).slice(0, 25))
      console.log(`${String(f.casts).padStart(4)} as ${String(f.nonNull).padStart(4)} !  ${f.file}`);
    for (const o of oversized) console.log(`oversized: ${o}`);
    for (const o of manyParams) console.log(`params: ${o}`);
    for (const o of wide) console.log(`feature, over two parameters: ${o}`);
    for (const o of withNow) console.log(`feature, \`now\` parameter: ${o}`);
  }
  console.log(
    `src/: ${m.lines} lines, ${m.casts} \`as\` casts = ${now.castsPerKloc.toFixed(2)} per 1,000 lines, ${now.nonNull} \`!\`, ${now.unusedExports} unused exports, ${now.oversizedFunctions} functions over 80 lines or complexity 15, ${now.manyParams} over 4 positional parameters; src/features/: ${now.featureFunctionsOverTwoParams} exported functions with more than two parameters, ${now.featureFunctionsWithNow} with a \`now\` parameter`,
  );
  if (process.argv.includes("--write")) {
    writeFileSync(BUDGET_FILE, `${JSON.stringify(now, null, 2)}\n`);
    console.log(`wrote ${path.relative(ROOT, BUDGET_FILE)}`);
    process.exit(0);
  }
  const budget = JSON.parse(readFileSync(BUDGET_FILE, "utf8"));
  const over = Object.keys(budget).filter((k) => now[k] > budget[k]);
  for (const k of over) console.error(`over budget: ${k} ${now[k]} > ${budget[k]} (.code-budget.json)`);
  const under = Object.keys(budget).filter((k) => now[k] < budget[k]);
  if (under.length > 0 && over.length === 0)
    console.log(`under budget (${under.join(", ")}): lower .code-budget.json with \`npm run budget -- --write\``);
  process.exit(over.length > 0 ? 1 : 0);
}
