import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process";

// The client is packed separately (npm pack in packages/client, docs/client-install.md): its
// tarball carries only the compiled code, bundles every dependency (it declares none: an install
// needs no registry), and the packed `oabp` runs on its own. The e2e global setup
// (test/setup/client-pack.ts) has built packages/client/pack/ from the current sources.

const PKG = path.join(ROOT, "packages/client");
// Bundled into dist/ by esbuild: dev dependencies of the package, none at install time.
const DEPS = ["@noble/ed25519", "@noble/hashes", "canonicalize", "openapi-fetch", "viem"];
const tmp = mkdtempSync(path.join(tmpdir(), "oabp-client-pack-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

describe("@oabp/client package", () => {
  it("imports nothing but node builtins, its own files and the dependencies it bundles", () => {
    const manifest = JSON.parse(readFileSync(path.join(PKG, "package.json"), "utf8"));
    expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest.devDependencies).sort()).toEqual(DEPS);
    const used = new Set<string>();
    for (const f of sources(path.join(PKG, "src"))) {
      for (const m of readFileSync(f, "utf8").matchAll(/(?<![\w/])(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        const spec = m[1]!;
        if (spec.startsWith(".") || spec.startsWith("node:")) continue;
        used.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
      }
    }
    expect([...used].sort()).toEqual(DEPS);
  });

  it("the packed tarball holds dist/ only, and its oabp runs without node_modules", { timeout: 240_000 }, () => {
    const tarball = readdirSync(path.join(PKG, "pack")).find((f) => f.endsWith(".tgz"))!;
    expect(tarball).toBe(`oabp-client-${JSON.parse(readFileSync(path.join(PKG, "package.json"), "utf8")).version}.tgz`);
    const files = execFileSync("tar", ["-tzf", path.join(PKG, "pack", tarball)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ""));
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "CHANGELOG.md",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/cli/main.js",
        "dist/generated/openapi.d.ts",
      ]),
    );
    expect(
      files.filter((f) => !f.startsWith("dist/") && !["package.json", "README.md", "CHANGELOG.md"].includes(f)),
    ).toEqual([]);
    execFileSync("tar", ["-xzf", path.join(PKG, "pack", tarball), "-C", tmp]);
    const unpacked = path.join(tmp, "package");
    // No node_modules anywhere above the unpacked copy (tmpdir): every import is bundled.
    expect(readFileSync(path.join(unpacked, "dist/cli/main.js"), "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
    const help = execFileSync(process.execPath, [path.join(unpacked, "dist/cli/main.js"), "--help"], {
      encoding: "utf8",
    });
    expect(help).toContain("usage: oabp");
    const exported = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(path.join(unpacked, "dist/index.js"))}); console.log(Object.keys(m).sort().join(","))`,
      ],
      { encoding: "utf8" },
    );
    for (const name of [
      "OabpClient",
      "OabpError",
      "verifyReceipt",
      "verifyWebhook",
      "followMission",
      "fundMission",
      "loadAccount",
      "McpBridge",
    ])
      expect(exported.split(",").map((s) => s.trim())).toContain(name);
  });
});
