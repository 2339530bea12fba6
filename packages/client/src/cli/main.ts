#!/usr/bin/env node
import type { Out } from "./output.js";
import { run } from "./run.js";

const out: Out = {
  json: false,
  tty: Boolean(process.stdout.isTTY),
  write: (s) => void process.stdout.write(s),
  err: (s) => void process.stderr.write(s),
};
process.exitCode = await run(process.argv.slice(2), { out, env: process.env, stdin: process.stdin });
