#!/usr/bin/env node
// The repository stands alone (docs/architecture.md "Where a rule lives"): comments and docs say
// the reason or point into docs/ and specs/, never at an issue number ("issue 17", "(issue 14)",
// "Issue 25:") or at a file outside the repository (design.md and style.md live in docs/; the
// OADP and ADP texts in docs/protocols/). An idempotent codemod over the tracked files:
//   node scripts/self-contained.mjs           rewrite in place
//   node scripts/self-contained.mjs --check   exit 1 and list what it would rewrite (CI)
// What no rewrite can say better — an issue's item or finding, a task or stop of a plan, a
// proposal number, "the scale issue" — is listed with its line for a person to reword (FLAGGED);
// a standard's number (EIP-712, ERC-8004, AIP-1, RFC 9110), a spec's own item (§7.2 item 2) and
// an HTTP status are not pointers and pass.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Vendored texts are kept as published; the codemod and its test spell the patterns on purpose.
const SKIP = [
  /^specs\//,
  /^test\/vectors\//,
  /^docs\/protocols\//,
  /^docs\/(design|style)\.md$/,
  /^drizzle\/meta\//,
  /^scripts\/self-contained\.mjs$/,
  /^test\/architecture\/self-contained\.test\.ts$/,
  /^packages\/client\/src\/generated\//,
  /^contracts\/artifacts\//,
  /package-lock\.json$/,
  /^openapi\/openapi\.json$/,
];
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|yml|yaml|sql|sh|sol|json)$|(^|\/)(Dockerfile|run)$/;

const ISSUE = String.raw`[Ii]ssues? \d+(?:(?:,| and) \d+)*(?:,? (?:item|items|finding|findings|must-show|part|lane) [\w-]+(?:(?:,| and) [\w-]+)*)*`;
const RULES = [
  // "(issue 16)", "(issue 19 item 3)", "(see issue 17)", "(issue 16, lane reads)"
  [new RegExp(String.raw` ?\((?:see |since |closes )?${ISSUE}(?:[ ,][^()]*)?\)`, "g"), ""],
  // "(bench/README.md, issue 16)" → "(bench/README.md)"
  [new RegExp(String.raw`(?:,|;| —) ?(?:see |since )?${ISSUE}(?=[)\]])`, "g"), ""],
  // "(issue 16: …" / "(Issue 16, …" → "(…"
  [new RegExp(String.raw`\((?:see )?${ISSUE}[:,;] ?`, "g"), "("],
  // "// Issue 19 item 1: the creator's …" → "// The creator's …"
  [
    new RegExp(String.raw`(^|[/*#>|] |\. |^\s+|["'\x60])${ISSUE}(?: \([^()]*\))?[:,.—-]* *(\w?)`, "gm"),
    (_m, pre, c) => pre + c.toUpperCase(),
  ],
  // "Since issue 16 (lane reads) such a request …" → "Now such a request …"
  [new RegExp(String.raw`\bSince ${ISSUE}(?: \([^()]*\))?,? ?`, "g"), "Now "],
  // what is left: "since issue 17", "of issue 15", "issue 13 part 1"
  [new RegExp(String.raw` ?(?:since |in |of |for |see |from |closes |by )?${ISSUE}`, "g"), ""],
  // outside files → their copies in the repository
  // (a Markdown link beside them in docs/, `[style.md](style.md)`, already resolves)
  [/(?<![\w/.[-])(?<!\]\()(?:\.\.\/shared\/)?(design|style)\.md\b/g, "docs/$1.md"],
  [/`?\.\.\/shared\/seeds\/(OADP-discovery\.txt|ADP-agent-description\.txt)`?/g, "docs/protocols/$1"],
];

/** Pointers into the project's own history, reported rather than rewritten. */
const FLAGGED = [
  // an issue or a pull request by its number, hyphenated or with "#" (the test plants each spelling)
  /\b(?:[Ii]ssues?[- ]#|[Ii]ssue-|PR #?|[Pp]ull request #?)\d+\b/,
  // a tracker's bare number in brackets or after "see" (a colour such as #333 is never alone in brackets)
  /\(#\d+\)|\bsee #\d+\b/,
  // a numbered finding, a list of them, or an anchor made from one
  /\b[Ff]indings? \d+|\bfindings?-\d+/,
  // "item 5", "(items 3 and 4)" — not a spec's own "§7.2 item 2"
  /(?<!§[\d.]+ )\b[Ii]tems? \d+\b/,
  // "task 3", "stop 2" of a plan; "lane 4"
  /\b(?:[Tt]ask|[Ss]top|[Ll]ane) \d+\b/,
  // an enhancement proposal by its number (MCP's "SEP-" prefix, or "proposal #")
  /\bSEP-\d+\b|\bproposal #\d+/,
  // the people and branches that made the change: "(lane reads)", "(faces lane, 2026-11-28)",
  // "this lane", "the other lanes' tests", "the issue's table" — not MCP's "session lane"
  /\(lane [\w-]+|\b[\w-]+ lane, \d{4}|\b(?:this|that|another|a|the docs|the board) lane\b|\b(?:other|seven other|eight) lanes\b|\bthe issue's\b/,
  // an issue's numbered must-show, or what "the issue listed"
  /\b[Mm]ust-show \d+|\b[Tt]he issue (?:listed|asked|named|says|said|left|text)\b/,
  // an issue by its nickname: "the scale issue", "the perf issue's table"
  /\b[Tt]he (?!same |other |one |real |known |underlying )[\w-]+ issue\b/,
];

/** The lines of a text that point into the project's history: `line: text`. */
export function flagged(text) {
  const out = [];
  text.split("\n").forEach((line, i) => {
    if (FLAGGED.some((re) => re.test(line))) out.push(`${i + 1}: ${line.trim()}`);
  });
  return out;
}

/** The text with every rule applied (twice is the same as once). */
export function rewrite(text) {
  let out = text;
  for (const [re, to] of RULES) out = out.replace(re, to);
  // docs/docs/design.md from a path that already said docs/
  return out.replace(/docs\/docs\//g, "docs/").replace(/\.\.\/docs\/docs\//g, "../docs/");
}

/** The tracked text files whose text the codemod would change, with their new text. */
export function pending() {
  const files = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && TEXT.test(f) && !SKIP.some((re) => re.test(f)));
  const out = [];
  for (const f of files) {
    let text;
    try {
      text = readFileSync(path.join(ROOT, f), "utf8");
    } catch {
      continue; // deleted in the work tree
    }
    const next = rewrite(text);
    const lines = flagged(next);
    if (next !== text || lines.length > 0) out.push({ file: f, next, lines });
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const changed = pending();
  let left = 0;
  for (const { file, next, lines } of changed) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    if (next !== text) console.log(`${check ? "would rewrite" : "rewrote"} ${file}`);
    if (!check && next !== text) writeFileSync(path.join(ROOT, file), next);
    for (const l of lines) console.log(`reword ${file}:${l}`);
    left += lines.length;
  }
  if ((check && changed.length > 0) || left > 0) {
    console.error(
      `${changed.length} file(s) point at issue numbers, plans or outside files: run node scripts/self-contained.mjs, then reword what it lists`,
    );
    process.exit(1);
  }
}
