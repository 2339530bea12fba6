#!/usr/bin/env node
// `prepare` (run by `npm install` / `npm ci` in the repository): builds and packs @oabp/client
// (docs/client-install.md), then the server (scripts/build.mjs), so the first `npm start` after an
// install starts at once. Both need esbuild, a development dependency: a production install
// (`npm ci --omit=dev`, the Docker image's runtime stage) skips them and runs the build it was
// given.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
try {
  createRequire(import.meta.url).resolve("esbuild");
} catch {
  process.stderr.write("prepare: esbuild is not installed (a production install); using the existing build\n");
  process.exit(0);
}
execFileSync(process.execPath, [path.join(ROOT, "packages/client/scripts/build.mjs"), "--pack"], { stdio: "inherit" });
execFileSync(process.execPath, [path.join(ROOT, "scripts/build.mjs")], { stdio: "inherit" });
