#!/usr/bin/env node
// `npx oabp` in a checkout of this repository: runs the client's TypeScript CLI through tsx (a
// dependency), so no build step is needed. Installed from npm, @oabp/client ships compiled JS.
import { register } from "tsx/esm/api";

register();
await import("../packages/client/src/cli/main.ts");
