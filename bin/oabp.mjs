#!/usr/bin/env node
// `npx oabp` in a checkout of this repository: runs the client's compiled CLI, built into
// packages/client/dist by `npm install` / `npm ci` (the root `prepare` script) and by
// `npm run build:client` after editing packages/client/src. No TypeScript loader at run time.
import { existsSync } from "node:fs";

const main = new URL("../packages/client/dist/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("oabp: the client is not built; run `npm run build:client` (or `npm install`) here\n");
  process.exit(2);
}
await import(main.href);
