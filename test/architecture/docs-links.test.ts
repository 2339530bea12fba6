import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without declarations
import { dangling, danglingIn } from "../../scripts/docs-links.mjs";

// Pointers resolve (scripts/docs-links.mjs, run by CI's lint step): every repository path named
// in docs/*.md, README.md and src/ exists, and every `file.md "Heading"` names a heading or a bold
// label of that file.

const root = mkdtempSync(path.join(tmpdir(), "docs-links-"));
mkdirSync(path.join(root, "docs"));
mkdirSync(path.join(root, "src"));
writeFileSync(path.join(root, "docs/topic.md"), "# Topic\n\n## Connection slots\n\n- **Predicates.** text\n");
writeFileSync(path.join(root, "src/real.ts"), "export {};\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const check = (text: string, from = "src/file.ts") => danglingIn(root, from, text) as string[];

describe("docs links", () => {
  it("no dangling pointer in the repository's docs and comments", () => {
    expect(dangling() as string[]).toEqual([]);
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
});
