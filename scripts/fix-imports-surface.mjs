// What scripts/fix-imports.mjs knows of the tree: source files, how a specifier resolves, which
// feature a file belongs to, what a module exports (values or types), and each feature's index.ts
// as read, amended and rendered again.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
export const p = (rel) => join(ROOT, rel);

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
export function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const f = join(dir, name);
    if (name === "node_modules" || f === p("src/features/web/client")) continue;
    if (statSync(f).isDirectory()) walk(f, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(f);
  }
  return out;
}

export const stripExt = (f) => f.replace(/\.(ts|tsx|mts|mjs|js)$/, "").replace(/[\\/]index$/, "/index");
export function fileOf(noExt) {
  for (const ext of [".ts", ".tsx", ".mts", ".mjs"]) if (existsSync(noExt + ext)) return noExt + ext;
  for (const ext of [".ts", ".tsx"]) if (existsSync(join(noExt, "index" + ext))) return join(noExt, "index" + ext);
  return undefined;
}
export function specFor(fromFile, targetNoExt) {
  let s = relative(dirname(fromFile), targetNoExt).split(sep).join("/");
  s = s.replace(/\/index$/, "").replace(/^index$/, ".");
  return s.startsWith(".") ? s : `./${s}`;
}
export const featureOf = (abs) => {
  const parts = relative(p("src/features"), abs).split(sep);
  return parts.length > 1 && parts[0] !== ".." ? parts[0] : undefined;
};

// Which names a module exports as types only (interfaces, type aliases, `export type {}`).
const typeCache = new Map();
export function typeExports(file, seen = new Set()) {
  if (typeCache.has(file)) return typeCache.get(file);
  const out = { types: new Set(), values: new Set() };
  if (!file || seen.has(file)) return out;
  seen.add(file);
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  for (const st of sf.statements) {
    const exported =
      ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) {
      if (exported) out.types.add(st.name.text);
    } else if (ts.isVariableStatement(st) && exported) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) out.values.add(d.name.text);
    } else if (
      (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) &&
      exported &&
      st.name
    ) {
      out.values.add(st.name.text);
    } else if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      const inner = st.moduleSpecifier
        ? typeExports(fileOf(stripExt(resolve(dirname(file), st.moduleSpecifier.text))), seen)
        : undefined;
      for (const el of st.exportClause.elements) {
        const name = el.name.text;
        const orig = (el.propertyName ?? el.name).text;
        if (st.isTypeOnly || el.isTypeOnly || inner?.types.has(orig)) out.types.add(name);
        else out.values.add(name);
      }
    }
  }
  typeCache.set(file, out);
  return out;
}

// index.ts of each feature: module → { values, types }, read once, written at the end.
export const indexes = new Map();
export function indexOf(feature) {
  if (indexes.has(feature)) return indexes.get(feature);
  const file = p(`src/features/${feature}/index.ts`);
  const entry = { file, header: "", modules: new Map(), names: new Map(), changed: false };
  if (existsSync(file)) {
    const text = readFileSync(file, "utf8");
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    entry.header = text.slice(0, sf.statements[0]?.getStart(sf) ?? text.length).trimEnd();
    for (const st of sf.statements) {
      if (
        !ts.isExportDeclaration(st) ||
        !st.moduleSpecifier ||
        !st.exportClause ||
        !ts.isNamedExports(st.exportClause)
      ) {
        throw new Error(`${file}: only "export { … } from" lines belong in an index.ts (the codemod writes it)`);
      }
      const mod = st.moduleSpecifier.text;
      for (const el of st.exportClause.elements)
        addExport(entry, mod, el.name.text, st.isTypeOnly || el.isTypeOnly, false);
    }
  } else {
    entry.header = `// The public surface of the ${feature} feature: what app.ts, the job runner and other features may\n// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.`;
    entry.changed = true;
  }
  indexes.set(feature, entry);
  return entry;
}
export function addExport(entry, mod, name, isType, mark = true) {
  const had = entry.names.get(name);
  if (had && had !== mod) return false; // the name is already taken by another module of the feature
  if (!entry.modules.has(mod)) entry.modules.set(mod, { values: new Set(), types: new Set() });
  const m = entry.modules.get(mod);
  if (isType ? m.types.has(name) || m.values.has(name) : m.values.has(name)) return true;
  if (isType) m.types.add(name);
  else {
    m.types.delete(name);
    m.values.add(name);
  }
  entry.names.set(name, mod);
  if (mark) entry.changed = true;
  return true;
}
export function renderIndex(entry) {
  const lines = [];
  for (const mod of [...entry.modules.keys()].sort()) {
    const { values, types } = entry.modules.get(mod);
    // A name its module no longer exports (it moved down, or was renamed) leaves the surface.
    const has = typeExports(fileOf(resolve(dirname(entry.file), mod)));
    for (const set of [values, types]) for (const n of set) if (!has.values.has(n) && !has.types.has(n)) set.delete(n);
    if (values.size) lines.push(`export { ${[...values].sort().join(", ")} } from "${mod}";`);
    if (types.size) lines.push(`export type { ${[...types].sort().join(", ")} } from "${mod}";`);
  }
  return `${entry.header}\n${lines.join("\n")}\n`;
}
