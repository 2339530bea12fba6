#!/usr/bin/env node
// Builds @oabp/client into dist/ (docs/client-install.md):
// - dist/index.js and dist/cli/main.js: one esbuild bundle with code splitting, every dependency
//   inlined (the package installs with no registry access and `npx <server>/client.tgz` starts at
//   once); modules the code imports with import() (viem, the MCP bridge, the command modules)
//   become chunks loaded on use, so `oabp --help` never parses viem.
// - dist/**/*.d.ts: declarations from tsc, when typescript is installed (a dev dependency).
// - with --pack: `npm pack` of the result into pack/ (the tarball the server serves at /client.tgz).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const esbuild = await import("esbuild");

rmSync(path.join(PKG, "dist"), { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: PKG,
  entryPoints: { index: "src/index.ts", "cli/main": "src/cli/main.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  legalComments: "linked",
  logLevel: "warning",
});

let tsc;
try {
  tsc = require.resolve("typescript/bin/tsc");
} catch {
  process.stderr.write("@oabp/client: typescript not installed, dist/ has no .d.ts files\n");
}
if (tsc) execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: PKG, stdio: "inherit" });

if (process.argv.includes("--pack")) {
  const dest = path.join(PKG, "pack");
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  // --ignore-scripts: prepack would build again.
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dest], {
    cwd: PKG,
    stdio: ["ignore", "ignore", "inherit"],
  });
  process.stdout.write(
    `@oabp/client: ${readdirSync(dest).join(", ")} in ${path.relative(process.cwd(), dest) || "."}\n`,
  );
}
