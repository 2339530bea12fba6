#!/usr/bin/env node
// Re-runnable import codemod for the feature surfaces. Safe to run any number of times;
// a second run changes nothing. `node scripts/fix-imports.mjs [--check]` (`npm run fix-imports`;
// --check changes nothing and exits 1 if something would change). Run it after a merge that adds
// imports, then `npx tsc --noEmit` and `node scripts/feature-graph.mjs`.
//
// 1. MODULE_MOVES: imports of a file that moved below the features follow it (src, test, bench,
//    scripts).
// 2. SYMBOL_MOVES: a name that moved down (parseAgentId, AgentIdParam, MissionRow, …) is imported
//    from its new home, wherever the import named the old module or that feature's index.
// 3. Deep imports: inside src/, an import of another feature's internal file becomes an import of
//    the feature (`../missions`, `./features/missions`), and the names it takes are added to that
//    feature's index.ts (`export { … } from "./missions.read"`; `export type` for types).
// Imports from one specifier are then merged into one declaration. Tests may still import a
// feature's internals (they test them); only their moved modules and names are rewritten.
// The moves are listed in scripts/fix-imports-moves.mjs; resolving specifiers, reading exports and
// keeping each feature's index.ts are in scripts/fix-imports-surface.mjs.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import * as prettier from "prettier";
import ts from "typescript";
import { MODULE_MOVES, SYMBOL_MOVES } from "./fix-imports-moves.mjs";
import {
  addExport,
  featureOf,
  fileOf,
  indexes,
  indexOf,
  p,
  renderIndex,
  ROOT,
  specFor,
  stripExt,
  typeExports,
  walk,
} from "./fix-imports-surface.mjs";

const check = process.argv.includes("--check");

const warnings = [];
let changedFiles = 0;

function rewrite(file) {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const inSrc = file.startsWith(p("src") + sep);
  // A file that moved resolves a relative import that no longer resolves from where it used to be.
  const oldHome = Object.entries(MODULE_MOVES).find(([, to]) => p(to) === stripExt(file))?.[0];
  const targetOf = (spec) => {
    const here = stripExt(resolve(dirname(file), spec));
    if (fileOf(here) || !oldHome) return here;
    return stripExt(resolve(dirname(p(oldHome)), spec));
  };
  const ownFeature = featureOf(file);
  const decls = []; // { node, spec, default, ns, elements: [{name, alias, isType}], typeOnly, changed }
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const spec = st.moduleSpecifier.text;
    const clause = st.importClause;
    const d = {
      node: st,
      spec,
      origSpec: spec,
      default: clause?.name?.text,
      ns: undefined,
      elements: [],
      typeOnly: !!clause?.isTypeOnly,
      changed: false,
      attrs: st.attributes ? st.attributes.getText(sf) : "",
    };
    if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) d.ns = clause.namedBindings.name.text;
    else if (clause?.namedBindings)
      for (const el of clause.namedBindings.elements)
        d.elements.push({
          name: (el.propertyName ?? el.name).text,
          alias: el.name.text,
          isType: d.typeOnly || el.isTypeOnly,
        });
    d.sideEffect = !clause;
    decls.push(d);
  }
  // `export … from` lines only follow moved modules.
  for (const st of sf.statements) {
    if (!ts.isExportDeclaration(st) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const spec = st.moduleSpecifier.text;
    if (!spec.startsWith(".")) continue;
    const target = targetOf(spec);
    const moved = MODULE_MOVES[relative(ROOT, target).split(sep).join("/")];
    const next = moved ? specFor(file, p(moved)) : specFor(file, target);
    if (next !== spec && (moved || !fileOf(resolve(dirname(file), spec))))
      decls.push({ node: st, spec: next, origSpec: spec, exportFrom: true, changed: true, elements: [] });
  }
  // Dynamic `import("…")` calls only follow moved modules.
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const arg = node.arguments[0];
      const moved = arg.text.startsWith(".") && MODULE_MOVES[relative(ROOT, targetOf(arg.text)).split(sep).join("/")];
      if (moved)
        decls.push({
          node: { moduleSpecifier: arg },
          spec: specFor(file, p(moved)),
          origSpec: arg.text,
          exportFrom: true,
          changed: true,
          elements: [],
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const extra = [];
  for (const d of decls) {
    if (!d.spec.startsWith(".") || d.exportFrom) continue;
    let target = targetOf(d.spec);
    if (oldHome && !fileOf(resolve(dirname(file), d.spec))) d.changed = true;
    const movedRel = MODULE_MOVES[relative(ROOT, target).split(sep).join("/")];
    if (movedRel) target = p(movedRel);
    if (movedRel || d.changed) {
      d.spec = specFor(file, target);
      d.changed = true;
    }
    const targetRel = relative(ROOT, target).split(sep).join("/");
    for (const mv of SYMBOL_MOVES) {
      const fromIndex = mv.from.filter((f) => f.startsWith("src/features/")).map((f) => f.replace(/\/[^/]+$/, "")); // the feature folder (its index)
      if (!mv.from.includes(targetRel) && !fromIndex.includes(targetRel.replace(/\/index$/, ""))) continue;
      if (mv.ifExists) {
        const f = fileOf(p(mv.to));
        if (!f) continue;
        const ex = typeExports(f);
        if (!mv.names.every((n) => ex.values.has(n) || ex.types.has(n))) continue;
      }
      const moving = d.elements.filter((e) => mv.names.includes(e.name));
      if (!moving.length) continue;
      d.elements = d.elements.filter((e) => !mv.names.includes(e.name));
      d.changed = true;
      extra.push({ spec: specFor(file, p(mv.to)), elements: moving, typeOnly: false, changed: true });
    }
    // Deep import of another feature's internal file, from code in src/.
    const tFeature = featureOf(target);
    const targetFile = fileOf(target);
    if (!inSrc || !tFeature || tFeature === ownFeature || !targetFile) continue;
    const featureDir = p(`src/features/${tFeature}`);
    if (stripExt(targetFile) === join(featureDir, "index")) continue;
    if (d.default || d.ns || d.sideEffect) {
      warnings.push(
        `${relative(ROOT, file)}: ${d.origSpec} is a default, namespace or side-effect import; left as it is`,
      );
      continue;
    }
    if (!d.elements.length) continue;
    const entry = indexOf(tFeature);
    const mod = specFor(join(featureDir, "index.ts"), stripExt(targetFile));
    const ex = typeExports(targetFile);
    const ok = d.elements.every((e) => addExport(entry, mod, e.name, ex.types.has(e.name) && !ex.values.has(e.name)));
    if (!ok) {
      warnings.push(
        `${relative(ROOT, file)}: a name from ${d.origSpec} is already exported by another module of ${tFeature}; left as it is`,
      );
      continue;
    }
    d.spec = specFor(file, featureDir);
    d.changed = true;
  }
  if (!decls.some((d) => d.changed) && !extra.length) return text;

  // Merge named imports that now share a specifier (never default/namespace/attribute imports).
  const bySpec = new Map();
  const edits = [];
  const render = (g) => {
    const els = [...g.elements.filter((e) => !e.isType), ...g.elements.filter((e) => e.isType)];
    const allType = els.every((e) => e.isType);
    const parts = els.map(
      (e) => `${!allType && e.isType ? "type " : ""}${e.name}${e.alias !== e.name ? ` as ${e.alias}` : ""}`,
    );
    return `import ${allType ? "type " : ""}{ ${parts.join(", ")} } from "${g.spec}";`;
  };
  const mergeable = (d) => !d.default && !d.ns && !d.sideEffect && !d.attrs;
  for (const d of decls) {
    if (d.exportFrom || !mergeable(d)) {
      if (d.changed)
        edits.push({
          start: d.node.moduleSpecifier.getStart(sf),
          end: d.node.moduleSpecifier.getEnd(),
          text: `"${d.spec}"`,
        });
      continue;
    }
    const g = bySpec.get(d.spec);
    if (g) {
      for (const e of d.elements)
        if (!g.elements.some((x) => x.alias === e.alias)) g.elements.push(e);
        else g.elements.find((x) => x.alias === e.alias).isType &&= e.isType;
      g.dirty = true;
      edits.push({ start: d.node.getFullStart(), end: d.node.getEnd(), text: "", remove: true });
    } else bySpec.set(d.spec, { spec: d.spec, elements: [...d.elements], node: d.node, dirty: d.changed });
  }
  const added = [];
  for (const x of extra) {
    const g = bySpec.get(x.spec);
    if (g) {
      for (const e of x.elements) if (!g.elements.some((y) => y.alias === e.alias)) g.elements.push(e);
      g.dirty = true;
    } else {
      const g2 = { spec: x.spec, elements: [...x.elements], node: undefined, dirty: true };
      bySpec.set(x.spec, g2);
      added.push(g2);
    }
  }
  const tail = added.map((g) => `\n${render(g)}`).join("");
  for (const g of bySpec.values()) {
    if (!g.node || !g.dirty) continue;
    edits.push({
      start: g.node.getStart(sf),
      end: g.node.getEnd(),
      text: g.elements.length ? render(g) : "",
      remove: !g.elements.length,
    });
  }
  if (tail) {
    const last = decls.filter((d) => !d.exportFrom).at(-1)?.node;
    edits.push({
      start: last ? last.getEnd() : 0,
      end: last ? last.getEnd() : 0,
      text: last ? tail : tail.slice(1) + "\n",
    });
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start || b.end - a.end)) {
    const start = e.start;
    let end = e.end;
    if (e.remove && e.text === "") {
      // Take the whole line: from the previous newline (getFullStart) or through the next one.
      if (out[start] !== "\n" && out[end] === "\n") end += 1;
    }
    out = out.slice(0, start) + e.text + out.slice(end);
  }
  return out;
}

// What the codemod writes is formatted as `npm run format` would, so a second run (and --check
// after the formatter) changes nothing.
async function formatted(file, text) {
  return prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
}
async function rewriteFile(file) {
  const text = readFileSync(file, "utf8");
  let out = rewrite(file);
  if (out !== text) out = await formatted(file, out);
  if (out !== text) {
    changedFiles++;
    if (check) console.log(`would change ${relative(ROOT, file)}`);
    else writeFileSync(file, out);
  }
}

// A feature's index.ts that re-exports a module which has since moved out of the feature: the
// names go with the module (importers of the feature get them from the new place), and the line
// leaves the surface.
const isIndex = (f) => /[\\/]features[\\/][^\\/]+[\\/]index\.ts$/.test(f);
for (const f of walk(p("src/features")).filter(isIndex)) {
  const entry = indexOf(featureOf(f));
  for (const [mod, { values, types }] of [...entry.modules]) {
    let target = relative(ROOT, stripExt(resolve(dirname(f), mod)))
      .split(sep)
      .join("/");
    const from = target;
    target = MODULE_MOVES[target] ?? target;
    if (target.startsWith(`src/features/${featureOf(f)}/`)) continue;
    SYMBOL_MOVES.push({
      names: [...values, ...types],
      from: [from, relative(ROOT, stripExt(f)).split(sep).join("/")],
      to: target,
    });
    entry.modules.delete(mod);
    for (const n of [...values, ...types]) entry.names.delete(n);
    entry.changed = true;
  }
}
const files = ["src", "test", "bench", "scripts"].flatMap((d) => walk(p(d))).filter((f) => !isIndex(f));
for (const f of files) await rewriteFile(f);
for (const entry of indexes.values()) {
  const next = await formatted(entry.file, renderIndex(entry));
  if (existsSync(entry.file) && readFileSync(entry.file, "utf8") === next) continue;
  changedFiles++;
  if (check) console.log(`would change ${relative(ROOT, entry.file)}`);
  else writeFileSync(entry.file, next);
}
for (const w of warnings) console.warn(`warning: ${w}`);
console.log(`${changedFiles} file(s) ${check ? "would change" : "changed"}`);
process.exit(check && changedFiles > 0 ? 1 : 0);
