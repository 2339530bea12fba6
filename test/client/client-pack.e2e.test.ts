import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process";

// The client is packed separately (npm pack in packages/client): its tarball builds, carries only
// the compiled code, declares a short dependency list that covers every import, and the packed
// `oabp` runs.

const PKG = path.join(ROOT, "packages/client");
// @noble/hashes is viem's own (same version range): no extra install.
const DEPS = ["@noble/ed25519", "@noble/hashes", "canonicalize", "openapi-fetch", "viem"];
const tmp = mkdtempSync(path.join(tmpdir(), "oabp-client-pack-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

describe("@oabp/client package", () => {
  it("imports nothing but node builtins, its own files and its declared dependencies", () => {
    const manifest = JSON.parse(readFileSync(path.join(PKG, "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(DEPS);
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

  it("npm pack builds a tarball whose oabp runs", { timeout: 240_000 }, () => {
    const out = execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
      cwd: PKG,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    const [info] = JSON.parse(out.slice(out.indexOf("["))) as { filename: string; files: { path: string }[] }[];
    const files = info!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/cli/main.js",
        "dist/generated/openapi.d.ts",
      ]),
    );
    expect(files.filter((f) => !f.startsWith("dist/") && f !== "package.json" && f !== "README.md")).toEqual([]);
    execFileSync("tar", ["-xzf", path.join(tmp, info!.filename), "-C", tmp]);
    const unpacked = path.join(tmp, "package");
    // Resolve the dependencies from this repository's node_modules, as an install would provide them.
    symlinkSync(path.join(ROOT, "node_modules"), path.join(unpacked, "node_modules"));
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
