import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// patches/postgres+3.4.9.patch is applied at install by patch-package (package.json
// "postinstall"); the failures it guards against are shown on a real server by
// test/db/unpipelined.int.test.ts. This checks the driver the server loads carries all three
// fixes, in each of its builds, so an install that skipped the patch fails here at once.
// The package's exports name no package.json: its root is two levels above the CommonJS entry.
const dir = path.resolve(path.dirname(createRequire(import.meta.url).resolve("postgres")), "../..");
const FIXES = [
  { file: "connection.js", mark: "/* oabp: closed socket */" },
  { file: "connection.js", mark: "/* oabp: settle at close */" },
  { file: "index.js", mark: "/* oabp: reserved queue at close */" },
];

describe("the installed postgres.js", () => {
  it("is the version the patch was made for", () => {
    const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
    expect(version).toBe("3.4.9");
  });

  it.each(["src", "cjs/src", "cf/src"])("%s carries every fix of the patch", (build) => {
    for (const { file, mark } of FIXES) expect(readFileSync(path.join(dir, build, file), "utf8")).toContain(mark);
  });
});
