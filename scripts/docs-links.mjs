#!/usr/bin/env node
// Pointers resolve (docs/architecture.md "Where a rule lives"), wherever a pointer can be: the
// docs (docs/**/*.md, README.md, every README below), the code and its comments (src/, scripts/,
// bench/, test/, packages/client/, .ci/, the Dockerfile, the root configs) and the migrations'
// SQL comments (drizzle/*.sql). A pointer is any of
//   - a repository path (`src/…`, `docs/…`, `test/…`, …; a file, or a folder ending in `/`): it exists;
//   - `file.md "Heading"` (from the root, beside the pointing file, or in docs/; several headings
//     as `file.md "A", "B"`; a heading may wrap onto the next comment line): each names a heading of that file (a `#` line) or one of its bold
//     labels (`**Heading**`, the way docs/events.md names its points) whose text holds the quoted
//     words, in any case;
//   - `file.md#anchor`: the anchor is the slug of one of that file's headings (as GitHub makes it);
//   - a Markdown link `[text](target)` in a .md file: the target exists beside that file.
//   node scripts/docs-links.mjs --check   exit 1 and list each dangling pointer (CI's lint step)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|md|sql|sh|yml|yaml)$|(^|\/)(Dockerfile|run)$/;
const SCANNED = /^(docs|src|scripts|bench|test|packages\/client|\.ci|drizzle)\/|^[^/]+$/;
const SKIPPED = [
  /^docs\/style\.md$/, // kept as published: a copy of a text from outside the repository
  /^docs\/protocols\//, // same
  /^test\/vectors\//, // frozen inputs
  /^drizzle\/meta\//, // drizzle-kit's snapshots
  /^packages\/client\/src\/generated\//, // generated from openapi/openapi.json
  /^scripts\/(docs-links|self-contained)\.mjs$/, // spell pointer forms and patterns with placeholders
  /^test\/architecture\/docs-links\.test\.ts$/, // plants dangling pointers on purpose
  /^test\/architecture\/(boundaries\.check|feature-signatures\.check|self-contained\.test)\.ts$/, // plant files and pointers in temporary roots
  /^test\/build\/stale\.test\.ts$/, // same
  /^scripts\/fix-imports-moves\.mjs$/, // names the old paths of moved modules
  /^package-lock\.json$/,
];
const TOP = "src|docs|test|scripts|bench|specs|contracts|packages|drizzle|bin|openapi|patches|\\.ci";
/** A repository path: a top folder, then segments, ending in a file name with an extension. */
const PATH = new RegExp(String.raw`(?<![\w./-])(?:\.\./)?((?:${TOP})/[\w./@-]*[\w-]\.[a-z]{1,5})(?![\w/<{*-])`, "g");
/** A repository folder: a top folder, then segments, ending in `/` (`src/features/web/`). */
const DIR = new RegExp(String.raw`(?<![\w./-])((?:${TOP})/(?:[\w.@-]+/)*)(?![\w<{*.-])`, "g");
/** `file.md "Heading"`, `[x](../file.md) "Heading"`, `file.md "A", "B"`. */
const POINTER = /([\w./-]*[\w-]\.md)\)?`? ((?:"[^"\n]{1,120}"(?:,? (?:and )?)?)+)/g;
/** `file.md#anchor`. */
const ANCHOR = /([\w./-]*[\w-]\.md)#([\w%-]+)/g;
/** A Markdown link's target: `[text](target)`, not a URL, not an anchor of the same file. */
const LINK = /\]\((?!\w+:|#|<)([^)\s#]+)/g;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces → hyphens. */
export function slugOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

function namesOf(file, cache) {
  if (!cache.has(file)) {
    const names = [];
    const slugs = [];
    let fence = false;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (/^\s*```/.test(line)) fence = !fence;
      if (fence) continue;
      const h = /^#{1,6} +(.+?) *#* *$/.exec(line);
      if (h) {
        names.push(h[1]);
        slugs.push(slugOf(h[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")));
      }
      for (const b of line.matchAll(/\*\*([^*]+)\*\*/g)) names.push(b[1]);
    }
    // A heading's own pointers are not its words ("Release paths (docs/base-rail.md "Paths")" is
    // no heading "Paths" of this file).
    const own = (n) => n.replace(POINTER, "").replace(/`/g, "").toLowerCase();
    cache.set(file, { names: names.map(own), slugs });
  }
  return cache.get(file);
}

/** Build output a pointer may name before it is built (.gitignore). */
const BUILT = /^(dist|contracts\/out|packages\/client\/(dist|pack)|data)\//;

/** A repository path exists: from the root, or from the pointing file's package (packages/client/
 * names its own `src/…`), as a file, a folder, or a module named without its extension. */
function exists(root, from, rel) {
  if (BUILT.test(rel)) return true;
  const pkg = /^packages\/[^/]+\//.exec(from)?.[0] ?? "";
  for (const base of pkg ? [root, path.join(root, pkg)] : [root]) {
    const p = path.join(base, rel);
    if (existsSync(p) || existsSync(`${p}.ts`) || existsSync(`${p}.tsx`)) return true;
  }
  return false;
}

/** Where a pointer's file is: from the repository root, beside the pointing file, or in docs/. */
function resolveMd(root, from, name) {
  for (const base of [root, path.join(root, path.dirname(from)), path.join(root, "docs")]) {
    const p = path.resolve(base, name);
    if (p.startsWith(root) && existsSync(p)) return p;
  }
  return undefined;
}

/** The dangling pointers of one file's text: `file:line what`. */
export function danglingIn(root, from, text, cache = new Map()) {
  const out = [];
  const lines = text.split("\n");
  const markdown = from.endsWith(".md");
  let fence = false;
  lines.forEach((line, i) => {
    const where = `${from}:${i + 1}`;
    if (markdown && /^\s*```/.test(line)) fence = !fence;
    for (const m of line.matchAll(PATH)) if (!exists(root, from, m[1])) out.push(`${where} ${m[1]}`);
    for (const m of line.matchAll(DIR)) if (!exists(root, from, m[1])) out.push(`${where} ${m[1]}`);
    // A pointer wrapped onto the next line (a comment's `//`, ` *`, `--` or `#` dropped there).
    const next = (lines[i + 1] ?? "").replace(/^\s*(?:\/\/|\*|--|#|>)?\s*/, "");
    const joined = `${line} ${next}`;
    const pointers = [...joined.matchAll(POINTER)].filter((m) => m.index + m[0].indexOf('"') < line.length);
    for (const m of pointers) {
      const file = resolveMd(root, from, m[1]);
      if (!file) {
        if (m[1].includes("/")) continue; // a repository path: reported above when missing
        out.push(`${where} ${m[1]} (no such file)`);
        continue;
      }
      const { names } = namesOf(file, cache);
      for (const h of m[2].matchAll(/"([^"]+)"/g)) {
        // A heading or label that says it: "Inbox" names "`GET /agents/me/inbox` (bearer)".
        const wanted = h[1].replace(/`/g, "").toLowerCase();
        if (!names.some((n) => n.includes(wanted))) out.push(`${where} ${m[1]} "${h[1]}"`);
      }
    }
    for (const m of line.matchAll(ANCHOR)) {
      const file = resolveMd(root, from, m[1]);
      if (!file) {
        if (!m[1].includes("/")) out.push(`${where} ${m[1]} (no such file)`);
        continue;
      }
      if (!namesOf(file, cache).slugs.includes(decodeURIComponent(m[2]))) out.push(`${where} ${m[1]}#${m[2]}`);
    }
    if (markdown && !fence) {
      for (const m of line.matchAll(LINK)) {
        const target = path.resolve(root, path.dirname(from), m[1]);
        const told = out.some(
          (o) => o.startsWith(`${where} `) && m[1].endsWith(o.slice(where.length + 1).split(" ")[0]),
        );
        if (!told && (!target.startsWith(root) || !existsSync(target))) out.push(`${where} (${m[1]})`);
      }
    }
  });
  return out;
}

/** Every tracked file a pointer can be in. */
export function scannedFiles(root = ROOT) {
  return execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter(
      (f) => TEXT.test(f) && SCANNED.test(f) && !SKIPPED.some((re) => re.test(f)) && existsSync(path.join(root, f)),
    );
}

/** Every dangling pointer in the tracked docs, code and comments. */
export function dangling(root = ROOT) {
  const cache = new Map();
  return scannedFiles(root).flatMap((f) => danglingIn(root, f, readFileSync(path.join(root, f), "utf8"), cache));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = dangling();
  for (const d of found) console.log(d);
  if (found.length > 0) {
    console.error(`${found.length} dangling pointer(s) in docs and comments`);
    process.exit(1);
  }
}
