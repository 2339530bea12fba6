import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { staleReason } from "../../scripts/build.mjs";

// `npm start` rebuilds when the build is missing or older than an input (scripts/build.mjs);
// a copy without sources (the Docker image's runtime stage) runs the build it has.

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tree(): string {
  root = mkdtempSync(path.join(tmpdir(), "oabp-stale-"));
  mkdirSync(path.join(root, "src/db"), { recursive: true });
  mkdirSync(path.join(root, "drizzle"));
  writeFileSync(path.join(root, "src/db/a.ts"), "export {};\n");
  writeFileSync(path.join(root, "drizzle/0000.sql"), "select 1;\n");
  const old = new Date(Date.now() - 60_000);
  for (const p of ["src/db/a.ts", "src/db", "src", "drizzle/0000.sql", "drizzle"])
    utimesSync(path.join(root, p), old, old);
  return root;
}

function stamp(at: Date) {
  mkdirSync(path.join(root, "dist"), { recursive: true });
  writeFileSync(path.join(root, "dist/BUILD.json"), "{}\n");
  utimesSync(path.join(root, "dist/BUILD.json"), at, at);
}

describe("staleReason", () => {
  it("asks for a build when there is none", () => {
    tree();
    expect(staleReason(root)).toBe("no build");
  });

  it("is current when every input is older than the build", () => {
    tree();
    stamp(new Date());
    expect(staleReason(root)).toBeNull();
  });

  it("is stale when a source, a migration or a new file is newer", () => {
    tree();
    stamp(new Date(Date.now() - 30_000));
    const now = new Date();
    utimesSync(path.join(root, "src/db/a.ts"), now, now);
    expect(staleReason(root)).toBe("src changed");

    tree();
    stamp(new Date(Date.now() - 30_000));
    writeFileSync(path.join(root, "drizzle/0001.sql"), "select 2;\n");
    expect(staleReason(root)).toBe("drizzle changed");
  });

  it("runs the build it has when the sources are not there", () => {
    tree();
    stamp(new Date(Date.now() - 30_000));
    rmSync(path.join(root, "src"), { recursive: true });
    expect(staleReason(root)).toBeNull();
  });
});
