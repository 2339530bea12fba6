// Which refusal reasons each REST route can answer, read from the source (docs/api.md "Errors"):
// every `new AppError(code, message, { reason })` in src/, and for each route the reasons reachable
// from its handler, its own middleware and the middleware its router and the app put before it.
// Reachability follows every reference to a function declared in src/ (calls and callbacks alike);
// calls through an interface (a port in Deps) are not followed, the runtime check catches those.
// `npx tsx scripts/reasons-scan.ts` prints JSON: { sites, routes: { "METHOD /path": { CODE: [reasons] } } }.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SRC = path.join(ROOT, "src") + path.sep;

type Pair = `${string} ${string}`; // "CODE reason"
type Site = { code: string; reason: string; file: string; line: number; message: string };

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(ROOT, "tsconfig.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => {},
  },
);
if (!config) throw new Error("tsconfig.json");
const program = ts.createProgram(
  config.fileNames.filter((f) => f.startsWith(SRC)),
  config.options,
);
const checker = program.getTypeChecker();
const inSrc = (n: ts.Node) => n.getSourceFile().fileName.startsWith(SRC.split(path.sep).join("/"));

const literals = (e: ts.Expression): string[] | undefined => {
  if (ts.isStringLiteralLike(e)) return [e.text];
  const t = checker.getTypeAtLocation(e);
  const parts = t.isUnion() ? t.types : [t];
  const out = parts.filter((p) => p.isStringLiteral()).map((p) => (p as ts.StringLiteralType).value);
  return out.length === parts.length ? out : undefined;
};

const resolve = (n: ts.Node): ts.Symbol | undefined => {
  let s = checker.getSymbolAtLocation(n);
  if (s && s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s);
  return s;
};

/** The function a declaration stands for (a function, a method, a const bound to an arrow). */
function bodyOf(d: ts.Declaration): ts.Node | undefined {
  if (!inSrc(d)) return undefined;
  if (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isArrowFunction(d) || ts.isFunctionExpression(d))
    return d;
  if (ts.isVariableDeclaration(d) && d.initializer) return d.initializer;
  if (ts.isPropertyAssignment(d)) return d.initializer;
  if (ts.isShorthandPropertyAssignment(d)) {
    const s = checker.getShorthandAssignmentValueSymbol(d);
    return s?.valueDeclaration && bodyOf(s.valueDeclaration);
  }
  if (ts.isGetAccessor(d) || ts.isConstructorDeclaration(d)) return d;
  return undefined;
}

const sites: Site[] = [];
/** A helper whose reason is one of its parameters: the callers' arguments say which. */
const reasonParams = new Map<ts.Node, { index: number; code: string }[]>();

function appErrorReasons(n: ts.NewExpression, out: Set<Pair>) {
  const [codeArg, messageArg, details] = n.arguments ?? [];
  if (!codeArg) return;
  const codes = literals(codeArg) ?? ["?"];
  if (!details) return;
  let reasonExpr: ts.Expression | undefined;
  let shorthand: ts.Symbol | undefined;
  if (ts.isObjectLiteralExpression(details)) {
    for (const p of details.properties) {
      if (p.name && ts.isIdentifier(p.name) && p.name.text === "reason") {
        if (ts.isPropertyAssignment(p)) reasonExpr = p.initializer;
        else if (ts.isShorthandPropertyAssignment(p)) reasonExpr = p.name;
        if (ts.isShorthandPropertyAssignment(p)) shorthand = checker.getShorthandAssignmentValueSymbol(p);
      }
    }
  }
  const at = n.getSourceFile().getLineAndCharacterOfPosition(n.getStart());
  const where = { file: path.relative(ROOT, n.getSourceFile().fileName), line: at.line + 1 };
  const message = messageArg?.getText().slice(0, 120) ?? "";
  if (!reasonExpr) {
    const t = checker.getTypeAtLocation(details).getProperty("reason");
    if (!t) return;
    reasonExpr = undefined;
    const rs = literalsOfSymbol(t, details);
    for (const code of codes) for (const r of rs ?? ["?"]) add(out, code, r, where, message);
    return;
  }
  // A parameter of the enclosing helper: its callers name the reason.
  const s = shorthand ?? (ts.isIdentifier(reasonExpr) ? resolve(reasonExpr) : undefined);
  const decl = s?.valueDeclaration;
  if (decl && ts.isParameter(decl)) {
    const fn = decl.parent;
    const index = fn.parameters.indexOf(decl);
    for (const code of codes) reasonParams.set(fn, [...(reasonParams.get(fn) ?? []), { index, code }]);
    return;
  }
  for (const code of codes) for (const r of literals(reasonExpr) ?? ["?"]) add(out, code, r, where, message);
}

function literalsOfSymbol(s: ts.Symbol, at: ts.Node): string[] | undefined {
  const t = checker.getTypeOfSymbolAtLocation(s, at);
  const parts = t.isUnion() ? t.types : [t];
  const out = parts.filter((p) => p.isStringLiteral()).map((p) => (p as ts.StringLiteralType).value);
  return out.length && out.length === parts.filter((p) => !(p.flags & ts.TypeFlags.Undefined)).length ? out : undefined;
}

function add(out: Set<Pair>, code: string, reason: string, where: { file: string; line: number }, message: string) {
  out.add(`${code} ${reason}`);
  if (!sites.some((x) => x.code === code && x.reason === reason && x.file === where.file && x.line === where.line))
    sites.push({ code, reason, ...where, message });
}

type Node = { pairs: Set<Pair>; callees: Set<ts.Node> };
const graph = new Map<ts.Node, Node>();

/** What a function refuses with itself, and the functions it references (calls and callbacks alike). */
function direct(fn: ts.Node): Node {
  const known = graph.get(fn);
  if (known) return known;
  const node: Node = { pairs: new Set(), callees: new Set() };
  graph.set(fn, node);
  const visit = (n: ts.Node) => {
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "AppError")
      appErrorReasons(n, node.pairs);
    if (ts.isIdentifier(n)) {
      const s = resolve(n);
      for (const d of s?.declarations ?? []) {
        const b = bodyOf(d);
        if (!b || b === fn || isAncestor(b, n)) continue;
        node.callees.add(b);
        // The helper's reason comes from this call's argument.
        if (ts.isFunctionLike(b) && ts.isCallExpression(n.parent) && n.parent.expression === n) {
          const call = n.parent;
          for (const { index, code } of reasonParams.get(b) ?? []) {
            const arg = call.arguments[index];
            const rs = arg ? literals(arg) : undefined;
            const at = call.getSourceFile().getLineAndCharacterOfPosition(call.getStart());
            const where = { file: path.relative(ROOT, call.getSourceFile().fileName), line: at.line + 1 };
            const message = call.arguments[index + 1]?.getText().slice(0, 120) ?? "";
            for (const r of rs ?? ["?"]) add(node.pairs, code, r, where, message);
          }
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(fn);
  return node;
}

/** The (code, reason) pairs a function can refuse with, itself or through what it references. */
function reach(fn: ts.Node): Set<Pair> {
  const out = new Set<Pair>();
  const seen = new Set<ts.Node>();
  const todo = [fn];
  while (todo.length) {
    const f = todo.pop();
    if (!f || seen.has(f)) continue;
    seen.add(f);
    const d = direct(f);
    for (const p of d.pairs) out.add(p);
    for (const c of d.callees) todo.push(c);
  }
  return out;
}

function isAncestor(a: ts.Node, n: ts.Node): boolean {
  for (let p: ts.Node | undefined = n; p; p = p.parent) if (p === a) return true;
  return false;
}

// Two passes: the first finds the helpers whose reason is a parameter, the second reads their callers.
const files = program.getSourceFiles().filter((f) => f.fileName.startsWith(SRC.split(path.sep).join("/")));
for (const f of files) direct(f);
graph.clear();
sites.length = 0;
for (const f of files) direct(f);
graph.clear();

const union = (...sets: Iterable<Pair>[]) => new Set(sets.flatMap((s) => [...s]));

/** Every argument of `x.use(...)` calls in a file: the middleware a router or the app puts before routes. */
function useRoots(sf: ts.SourceFile): Set<Pair> {
  const out = new Set<Pair>();
  const visit = (n: ts.Node) => {
    // `app.use("/missions", mw)` guards some paths only: their routes' own roots see it where it is in their file.
    const [first] = ts.isCallExpression(n) ? n.arguments : [];
    const pathArg = first && checker.getTypeAtLocation(first).flags & ts.TypeFlags.StringLike;
    const everywhere = !pathArg || (first && ts.isStringLiteral(first) && first.text === "*") || sf !== appFile;
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "use") {
      const pairs = n.arguments.flatMap((a) => [...reach(a)]);
      if (everywhere) for (const p of pairs) out.add(p);
      // A loop over paths (`for (const path of ["/missions", "/api/missions"]) app.use(path, mw)`).
      else scoped.push({ paths: pathsOf(n), pairs: new Set(pairs) });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const scoped: { paths: string[]; pairs: Set<Pair> }[] = [];
function pathsOf(use: ts.CallExpression): string[] {
  for (let p: ts.Node | undefined = use; p; p = p.parent)
    if (ts.isForOfStatement(p) && ts.isArrayLiteralExpression(p.expression))
      return p.expression.elements.filter(ts.isStringLiteral).map((e) => e.text);
  const [first] = use.arguments;
  return first && ts.isStringLiteral(first) ? [first.text] : [];
}
const appFile = program.getSourceFile(path.join(ROOT, "src/app.ts").split(path.sep).join("/"));
if (!appFile) throw new Error("src/app.ts");
const global = useRoots(appFile);

type Registered = { file: string; exportName: string; pairs: Set<Pair> };
const registered: Registered[] = [];
for (const f of files) {
  const local = useRoots(f);
  const visit = (n: ts.Node) => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      n.expression.name.text === "openapi" &&
      n.arguments.length >= 2
    ) {
      const [routeArg, handler] = n.arguments;
      const s = routeArg && resolve(routeArg);
      const decl = s?.valueDeclaration;
      if (decl && ts.isVariableDeclaration(decl) && handler) {
        const pairs = union(reach(handler), decl.initializer ? reach(decl.initializer) : [], local);
        registered.push({
          file: decl.getSourceFile().fileName,
          exportName: decl.name.getText(),
          pairs,
        });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(f);
}

const routes: Record<string, Record<string, string[]>> = {};
for (const r of registered) {
  const mod = (await import(pathToFileURL(r.file).href)) as Record<string, { method?: string; path?: string }>;
  const route = mod[r.exportName];
  if (!route?.method || !route.path) continue;
  const key = `${route.method.toUpperCase()} ${route.path}`;
  const byCode = (routes[key] ??= {});
  const here = scoped.filter((x) => x.paths.includes(route.path ?? "")).flatMap((x) => [...x.pairs]);
  for (const p of union(r.pairs, global, here)) {
    const [code, reason] = p.split(" ") as [string, string];
    byCode[code] = [...new Set([...(byCode[code] ?? []), reason])].sort();
  }
}
const globalByCode: Record<string, string[]> = {};
for (const p of global) {
  const [code, reason] = p.split(" ") as [string, string];
  (globalByCode[code] ??= []).push(reason);
}
console.log(JSON.stringify({ sites, global: globalByCode, routes }, null, 1));
