#!/usr/bin/env node
// CI's production smoke (.ci/run; docs/operations.md "The image"): in a temporary directory
// holding exactly what the Dockerfile's runtime stage holds — package.json, the lockfile,
// patches/, the three start scripts and the build — `npm ci --omit=dev --omit=optional`, then
// `npm start` on the embedded database, then GET /health and the board's page. Prints the
// runtime node_modules size and the times. Exit 1 on any failure; every step is bounded.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { clearTimeout, setTimeout } from "node:timers";
import { ROOT } from "./build.mjs";

const INSTALL_LIMIT_MS = 120_000; // npm ci from the local cache: 16–42 s on a loaded 2-core machine
const START_LIMIT_MS = 60_000;
const COPIED = [
  "package.json",
  "package-lock.json",
  "patches",
  "dist",
  "scripts/start.mjs",
  "scripts/build.mjs",
  "scripts/prepare.mjs",
];

execFileSync(process.execPath, [path.join(ROOT, "scripts/build.mjs"), "--if-stale"], { stdio: "inherit" });
const dir = mkdtempSync(path.join(tmpdir(), "oabp-prod-smoke-"));
let child;
const fail = (msg) => {
  console.error(`prod-smoke: ${msg}`);
  if (child) process.kill(-child.pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
};
try {
  mkdirSync(path.join(dir, "scripts"));
  for (const f of COPIED) cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true, preserveTimestamps: true });

  let t = performance.now();
  execFileSync("npm", ["ci", "--omit=dev", "--omit=optional", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    timeout: INSTALL_LIMIT_MS,
  });
  const installS = (performance.now() - t) / 1000;
  const size = execFileSync("du", ["-sh", "node_modules"], { cwd: dir, encoding: "utf8" }).split("\t")[0];

  t = performance.now();
  child = spawn("npm", ["start"], {
    cwd: dir,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", OABP_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true, // its own process group: npm does not pass SIGTERM on to the server
  });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "listening" line within ${START_LIMIT_MS / 1000} s`)),
      START_LIMIT_MS,
    );
    child.on("exit", (code) => reject(new Error(`npm start exited (${code})`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      try {
        const log = JSON.parse(line);
        if (log.msg === "oabp server listening") {
          clearTimeout(timer);
          resolve(log.port);
        }
      } catch {
        /* npm's own lines */
      }
    });
  }).catch((e) => fail(e.message));
  const health = await globalThis.fetch(`http://127.0.0.1:${port}/health`);
  if (health.status !== 200) fail(`GET /health answered ${health.status}`);
  const startS = (performance.now() - t) / 1000;
  const page = await globalThis.fetch(`http://127.0.0.1:${port}/`);
  const script = /src="(\/assets\/js\/app-[A-Z0-9]+\.js)"/.exec(await page.text())?.[1];
  if (page.status !== 200 || !script) fail(`GET / answered ${page.status} without the page script`);
  if ((await globalThis.fetch(`http://127.0.0.1:${port}${script}`)).status !== 200) fail(`GET ${script} failed`);
  console.log(
    `prod-smoke: npm ci --omit=dev ${installS.toFixed(1)} s, node_modules ${size}; npm start → healthy /health in ${startS.toFixed(1)} s (first start: migrations, keys)`,
  );
  const exited = new Promise((r) => child.on("exit", r));
  process.kill(-child.pid, "SIGTERM");
  await exited;
} catch (e) {
  fail(e.message);
}
rmSync(dir, { recursive: true, force: true });
