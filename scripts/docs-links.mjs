#!/usr/bin/env node
// Pointers in the docs and comments resolve (docs/architecture.md "Where a rule lives"): every
// repository path named in docs/*.md, README.md and src/ (`src/…`, `docs/…`, `test/…`, …) exists,
// and every `file.md "Heading"` pointer names a heading of that file (a `#` line) or one of its
// bold labels (`**Heading**`, the way docs/decisions.md and docs/events.md name their points):
// one whose text holds the quoted words, in any case.
//   node scripts/docs-links.mjs --check   exit 1 and list each dangling pointer (CI's lint step)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SCANNED = /^(docs\/[^/]+\.md|README\.md|src\/.+\.(ts|mjs|js))$/;
/** Kept as published: a copy of a text from outside the repository (scripts/self-contained.mjs). */
const VENDORED = /^docs\/style\.md$/;
const TOP = "src|docs|test|scripts|bench|specs|contracts|packages|drizzle|bin|openapi|patches|\\.ci";
/** A repository path: a top folder, then segments, ending in a file name with an extension. */
const PATH = new RegExp(String.raw`(?<![\w./-])(?:\.\./)?((?:${TOP})/[\w./@-]*[\w-]\.[a-z]{1,5})(?![\w/<{*-])`, "g");
/** `file.md "Heading"`, `[x](../file.md) "Heading"`, `file.md "A", "B"`. */
const POINTER = /([\w./-]*[\w-]\.md)\)?`? ((?:"[^"\n]{1,120}"(?:,? (?:and )?)?)+)/g;

function headingsOf(file, cache) {
  if (!cache.has(file)) {
    const names = [];
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const h = /^#{1,6} +(.+?) *$/.exec(line);
      if (h) names.push(h[1]);
      for (const b of line.matchAll(/\*\*([^*]+)\*\*/g)) names.push(b[1]);
    }
    cache.set(
      file,
      names.map((n) => n.replace(/`/g, "").toLowerCase()),
    );
  }
  return cache.get(file);
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
  lines.forEach((line, i) => {
    const where = `${from}:${i + 1}`;
    for (const m of line.matchAll(PATH)) if (!existsSync(path.join(root, m[1]))) out.push(`${where} ${m[1]}`);
    for (const m of line.matchAll(POINTER)) {
      const file = resolveMd(root, from, m[1]);
      if (!file) {
        if (m[1].includes("/")) continue; // a repository path: reported above when missing
        out.push(`${where} ${m[1]} (no such file)`);
        continue;
      }
      const names = headingsOf(file, cache);
      for (const h of m[2].matchAll(/"([^"]+)"/g)) {
        // A heading or label that says it: "Inbox" names "`GET /agents/me/inbox` (bearer)".
        const wanted = h[1].replace(/`/g, "").toLowerCase();
        if (!names.some((n) => n.includes(wanted))) out.push(`${where} ${m[1]} "${h[1]}"`);
      }
    }
  });
  return out;
}

/** Every dangling pointer in the tracked docs, README and src/. */
export function dangling(root = ROOT) {
  const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((f) => SCANNED.test(f) && !VENDORED.test(f) && existsSync(path.join(root, f)));
  const cache = new Map();
  return files.flatMap((f) => danglingIn(root, f, readFileSync(path.join(root, f), "utf8"), cache));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = dangling();
  for (const d of found) console.log(d);
  if (found.length > 0) {
    console.error(`${found.length} dangling pointer(s) in docs and comments`);
    process.exit(1);
  }
}
