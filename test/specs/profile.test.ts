import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROFILE_STATEMENTS } from "./profile-statements";

// The statement profile as a test: every row of specs/AIP-1/profile-aip-2-3-4.md has a status from
// the legend, names tests that exist (file › exact test name), and the rows per spec are the
// statements enumerated in profile-statements.ts.

const ROOT = new URL("../../", import.meta.url);
const PROFILE = "specs/AIP-1/profile-aip-2-3-4.md";
const STATUSES = ["conforms", "partial", "deviates", "n/a", "no"] as const;

interface Row {
  spec: string;
  section: string;
  status: string;
  tests: string;
  line: number;
}

function rows(text: string): Row[] {
  const out: Row[] = [];
  let spec: string | null = null;
  text.split("\n").forEach((l, i) => {
    const h = /^## (AIP-\d)\b/.exec(l);
    if (h) spec = h[1]!;
    if (!spec || !l.startsWith("| ") || l.startsWith("| § |") || l.startsWith("|---")) return;
    const cells = l.trim().replace(/^\|/, "").replace(/\|$/, "").split(" | ").map((c) => c.trim());
    if (cells.length !== 5) throw new Error(`${PROFILE}:${i + 1}: a row has 5 cells (§, statement, level, status, test)`);
    out.push({ spec, section: cells[0]!, status: cells[3]!, tests: cells[4]!, line: i + 1 });
  });
  return out;
}

const profile = rows(readFileSync(new URL(PROFILE, ROOT), "utf8"));
const sources = new Map<string, string>();
const source = (file: string) => {
  if (!sources.has(file)) sources.set(file, readFileSync(new URL(file, ROOT), "utf8"));
  return sources.get(file)!;
};
/** The test names a file declares (it / test / describe titles in double quotes or backticks, whole). */
const declares = (file: string, name: string) =>
  [`it("${name}"`, `it(\n    "${name}"`, `test("${name}"`, `it(\`${name}\``].some((f) => source(file).includes(f)) ||
  new RegExp(`\\bit\\(\\s*["\`]${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["\`]`).test(source(file));

describe("the AIP-2/3/4 statement profile", () => {
  it("every row's status is one of the legend's", () => {
    const bad = profile.filter((r) => !STATUSES.some((s) => r.status === s || r.status.startsWith(`${s} `) || r.status.startsWith(`${s}:`) ||
          r.status.startsWith(`${s};`) || r.status.startsWith(`${s} —`)));
    expect(bad.map((r) => `${PROFILE}:${r.line} ${r.status.slice(0, 40)}`)).toEqual([]);
  });

  it("every test a row names exists: the file, and a test of that exact name in it", () => {
    const missing: string[] = [];
    for (const r of profile) {
      if (r.tests === "—") continue;
      for (const ref of r.tests.split(" ‖ ")) {
        const [file, name] = ref.split(" › ");
        if (!file || !name) missing.push(`${PROFILE}:${r.line}: "${ref}" is not "file › test name"`);
        else if (!existsSync(new URL(file, ROOT))) missing.push(`${PROFILE}:${r.line}: no file ${file}`);
        else if (!declares(file, name)) missing.push(`${PROFILE}:${r.line}: no test "${name}" in ${file}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the rows per spec are the statements enumerated in profile-statements.ts", () => {
    for (const spec of ["AIP-2", "AIP-3", "AIP-4"] as const)
      expect(profile.filter((r) => r.spec === spec).map((r) => r.section), spec).toEqual(PROFILE_STATEMENTS[spec]);
  });
});
