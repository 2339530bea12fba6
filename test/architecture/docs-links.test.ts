import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without declarations
import { dangling, danglingIn } from "../../scripts/docs-links.mjs";

// Pointers resolve (scripts/docs-links.mjs, run by CI's lint step): every repository path named
// in the docs, the code, its comments and the migrations' SQL exists, every `file.md "Heading"`
// names a heading or a bold label of that file, every `file.md#anchor` a heading's slug, and every
// Markdown link's target exists.

const root = mkdtempSync(path.join(tmpdir(), "docs-links-"));
mkdirSync(path.join(root, "docs"));
mkdirSync(path.join(root, "src"));
writeFileSync(path.join(root, "docs/topic.md"), "# Topic\n\n## Connection slots\n\n- **Predicates.** text\n");
writeFileSync(path.join(root, "src/real.ts"), "export {};\n");
writeFileSync(
  path.join(root, "docs/anchors.md"),
  "# Anchors\n\n## Default outcomes (the `pool`)\n\n```\n# not a heading\n```\n",
);
const SELF = '**Which path (self.md "Paths").** text\n';
writeFileSync(path.join(root, "docs/self.md"), SELF);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const check = (text: string, from = "src/file.ts") => danglingIn(root, from, text) as string[];

describe("docs links", () => {
  it("no dangling pointer in the repository's docs and comments", () => {
    expect(dangling() as string[]).toEqual([]);
  });

  it("the README stays a front page: at most 250 lines, the depth in docs/", () => {
    const lines = readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8").split("\n").length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it("finds planted dangling pointers and passes the ones that resolve", () => {
    expect(check('// docs/topic.md "Connection slots", src/real.ts')).toEqual([]);
    expect(check('// (docs/topic.md "Predicates"; see topic.md "connection")', "docs/other.md")).toEqual([]);
    expect(check('// docs/topic.md "Rules as checks"')).toEqual(['src/file.ts:1 docs/topic.md "Rules as checks"']);
    expect(check('// docs/topic.md "Connection slots", "Gone"')).toEqual(['src/file.ts:1 docs/topic.md "Gone"']);
    expect(check("/**\n * src/features/nope/nope.service.ts\n */")).toEqual([
      "src/file.ts:2 src/features/nope/nope.service.ts",
    ]);
    expect(check('see [x](missing.md) "Heading"', "docs/other.md")).toEqual([
      "docs/other.md:1 missing.md (no such file)",
    ]);
    expect(check('// docs/missing.md "Heading"')).toEqual(["src/file.ts:1 docs/missing.md"]);
  });

  it("checks every form a pointer takes, from every kind of file", () => {
    // A migration's SQL comment, a test, a script, CI: the same rules.
    expect(check('-- docs/topic.md "Rules as checks"', "drizzle/0001_x.sql")).toEqual([
      'drizzle/0001_x.sql:1 docs/topic.md "Rules as checks"',
    ]);
    expect(check("# see scripts/gone.mjs", ".ci/run")).toEqual([".ci/run:1 scripts/gone.mjs"]);
    // A heading wrapped onto the next comment line is still checked, once.
    expect(check('/**\n * (docs/topic.md "Connection\n * slots"), docs/topic.md "Rules\n * as checks"\n */')).toEqual([
      'src/file.ts:3 docs/topic.md "Rules as checks"',
    ]);
    expect(check('// (docs/topic.md)\n// "not a heading"')).toEqual([]);
    // A label's own pointer is not one of its words.
    expect(check(SELF, "docs/self.md")).toEqual(['docs/self.md:1 self.md "Paths"']);
    // Anchors: a heading's slug as GitHub makes it; a line in a code block is no heading.
    expect(check("[x](anchors.md#default-outcomes-the-pool)", "docs/other.md")).toEqual([]);
    expect(check("// docs/anchors.md#default-outcomes", "test/x.test.ts")).toEqual([
      "test/x.test.ts:1 docs/anchors.md#default-outcomes",
    ]);
    expect(check("[x](anchors.md#not-a-heading)", "docs/other.md")).toEqual([
      "docs/other.md:1 anchors.md#not-a-heading",
    ]);
    // Folders, and modules named without their extension.
    expect(check("// src/ and src/gone/ and ../src/real")).toEqual(["src/file.ts:1 src/gone/"]);
    // Markdown links resolve beside the file; URLs and same-file anchors are not pointers.
    expect(check("[a](topic.md) [b](../src/real.ts) [c](https://x.test/a.md) [d](#topic)", "docs/other.md")).toEqual(
      [],
    );
    expect(check("[a](gone.md) [b](../docs/gone.md) [c](../src/gone.ts)", "docs/other.md")).toEqual([
      "docs/other.md:1 docs/gone.md",
      "docs/other.md:1 src/gone.ts",
      "docs/other.md:1 (gone.md)",
    ]);
  });
});
