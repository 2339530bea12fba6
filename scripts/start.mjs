#!/usr/bin/env node
// `npm start` (main), `npm run worker` (worker), `npm run keys:rotate` (rotate-receipt-key): runs
// the compiled entry dist/<name>.js in this process, building it first when it is missing or
// older than a source (scripts/build.mjs), so a fresh clone's `npm install && npm start` works and
// an edited checkout never runs old code. Run with `node --enable-source-maps` (package.json), so
// stack traces name the TypeScript files and lines.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, DIST, ENTRIES, staleReason } from "./build.mjs";

const RUNNABLE = Object.keys(ENTRIES).filter((k) => k !== "web-assets");
const name = process.argv[2] ?? "main";
if (!RUNNABLE.includes(name)) {
  console.error(`start: unknown entry "${name}"; one of ${RUNNABLE.join(", ")}`);
  process.exit(2);
}
process.argv.splice(2, 1); // the entry sees its own arguments only

if (staleReason() !== null) {
  try {
    await build(undefined, { ifStale: true });
  } catch (e) {
    // Without esbuild (installed with --omit=dev) a stale build cannot be remade here.
    if (!existsSync(path.join(DIST, `${name}.js`))) {
      console.error(`start: no build in dist/ and it cannot be made here (${e.message}); run \`npm run build\``);
      process.exit(1);
    }
    console.error(`start: the build is stale and could not be remade (${e.message}); running the existing build`);
  }
}
await import(pathToFileURL(path.join(DIST, `${name}.js`)).href);
