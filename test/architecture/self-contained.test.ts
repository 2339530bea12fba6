import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without declarations
import { pending, rewrite } from "../../scripts/self-contained.mjs";

// The repository stands alone: no comment or doc points at an issue number or at a file outside
// the repository (docs/architecture.md "Where a rule lives"; scripts/self-contained.mjs rewrites them).

describe("self-contained repository", () => {
  it("no tracked file points at an issue number or an outside file", () => {
    expect((pending() as { file: string }[]).map((p) => p.file)).toEqual([]);
  });

  it("the codemod catches planted references, and running it twice changes nothing more", () => {
    const planted = [
      ["// Issue 16: a list page is one SELECT", "// A list page is one SELECT"],
      ["// serialized (bench/README.md, issue 16).", "// serialized (bench/README.md)."],
      ["// the thread (issue 19 item 5).", "// the thread."],
      ['// (design.md "Claims")', '// (docs/design.md "Claims")'],
      ["// (../shared/seeds/OADP-discovery.txt)", "// (docs/protocols/OADP-discovery.txt)"],
      ["// style.md rule 12", "// docs/style.md rule 12"],
    ];
    for (const [before, after] of planted) {
      expect(rewrite(before)).toBe(after);
      expect(rewrite(after)).toBe(after);
    }
  });
});
