#!/usr/bin/env node
// The feature graph of src/: which feature imports which, which
// imports reach past another feature's index.ts, which pairs import each other and which cycles
// the feature graph has, and whether src/deps.ts (the `Deps` every layer names) sits on a circle of
// file imports, type-only imports included (it must stay below the features: docs/architecture.md
// "Layers"). Exits 1 if any of these, or an import from a lower layer (lib/, http/, db/) up into a
// feature, exists. `node scripts/feature-graph.mjs [--json] [--edges] [src-dir]`.
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const args = process.argv.slice(2);
const asJson = args.includes("--json");
const showEdges = args.includes("--edges");
const root = resolve(args.find((a) => !a.startsWith("--")) ?? "src");
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
// The browser client is a separate program with its own tsconfig; it imports nothing of the server.
const SKIP = new Set([join(root, "features", "web", "client")]);
const LOWER = ["lib", "http", "db"];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (SKIP.has(p) || name === "node_modules") continue;
    if (statSync(p).isDirectory()) walk(p, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

function resolveImport(from, spec) {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(from), spec);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.mjs`,
    `${base}.js`,
    join(base, "index.ts"),
    join(base, "index.tsx"),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** "missions" for src/features/missions/…, undefined outside features. */
function featureOf(file) {
  const parts = relative(root, file).split(sep);
  return parts[0] === "features" && parts.length > 2 ? parts[1] : undefined;
}
const isSurface = (file) => /^index\.tsx?$/.test(file.split(sep).pop() ?? "");
const layerOf = (file) => relative(root, file).split(sep)[0];

const files = walk(root);
const deep = [];
const upward = [];
const edges = new Map(); // "a" -> Set("b")
const fileEdges = new Map(); // file -> Set(file), every resolved import
for (const file of files) {
  const text = readFileSync(file, "utf8");
  // preProcessFile lists static imports, re-exports and dynamic import() calls, type-only included.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const from = featureOf(file);
  for (const { fileName: spec } of importedFiles) {
    const target = resolveImport(file, spec);
    if (!target) continue;
    if (!fileEdges.has(file)) fileEdges.set(file, new Set());
    fileEdges.get(file).add(target);
    const to = featureOf(target);
    const rel = relative(root, file);
    if (!to) continue;
    if (from === undefined && LOWER.includes(layerOf(file))) upward.push({ file: rel, spec, feature: to });
    if (from === to) continue;
    if (from) {
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(to);
    }
    if (!isSurface(target) || dirname(target) !== join(root, "features", to))
      deep.push({ file: rel, spec, feature: to });
  }
}

const mutual = [];
for (const [a, outs] of edges) for (const b of outs) if (a < b && edges.get(b)?.has(a)) mutual.push([a, b]);

// Tarjan's strongly connected components: every component of more than one node is a cycle.
function cycles(edges) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    stack = [],
    on = new Set(),
    out = [];
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) visit(v);
  return out;
}
const sccs = cycles(edges);
// The file circle through deps.ts, if any: the files of its strongly connected component.
const DEPS = join(root, "deps.ts");
const depsCircle = (cycles(fileEdges).find((c) => c.includes(DEPS)) ?? []).map((f) => relative(root, f));
const edgeList = [...edges].flatMap(([a, s]) => [...s].map((b) => [a, b])).sort();

const report = {
  files: files.length,
  edges: edgeList.length,
  deep_imports: deep,
  mutual_pairs: mutual,
  cycles: sccs,
  upward_imports: upward,
  deps_circle: depsCircle,
};
if (asJson) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`${files.length} files, ${edgeList.length} feature→feature edges`);
  if (showEdges) for (const [a, b] of edgeList) console.log(`  ${a} -> ${b}`);
  console.log(`deep imports (past another feature's index.ts): ${deep.length}`);
  for (const d of deep) console.log(`  ${d.file}: ${d.spec}`);
  console.log(`mutual pairs: ${mutual.length}`);
  for (const [a, b] of mutual) console.log(`  ${a} <-> ${b}`);
  console.log(`cycles (strongly connected sets of features): ${sccs.length}`);
  for (const c of sccs) console.log(`  ${c.join(", ")}`);
  console.log(`lower layer (lib/, http/, db/) importing a feature: ${upward.length}`);
  for (const u of upward) console.log(`  ${u.file}: ${u.spec}`);
  console.log(`files on a circle of imports through deps.ts (type-only included): ${depsCircle.length}`);
  for (const f of depsCircle) console.log(`  ${f}`);
}
process.exit(deep.length + mutual.length + sccs.length + upward.length + depsCircle.length > 0 ? 1 : 0);
