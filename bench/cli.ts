// npm run bench:cli — the `oabp` command line's cold start and the stdio MCP bridge's first answer
// (bench/README.md "CLI"). Targets: `oabp --help` and a read command < 300 ms, the bridge's first
// answer (initialize) < 1 s. Figures only: no test asserts a duration (docs/testing.md).
//
// Runs the compiled CLI (packages/client/dist, built by `npm install` / `npm run build:client`)
// as a user's shell would: a fresh `node` process per call. Against BENCH_CLI_URL when set, else a
// `src/main.ts` it starts on a free port with an embedded database in a temporary directory.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin/oabp.mjs");
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 15);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function startServer(dir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      OABP_DATA_DIR: dir,
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited (${code})`)));
    createInterface({ input: child.stdout! }).on("line", (l) => {
      if (l.includes('"oabp server listening"')) resolve();
    });
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Wall time of one `oabp …` process (or `node <args>` with raw), start to exit. */
function timeCli(args: string[], env: NodeJS.ProcessEnv, raw = false, okCode = 0): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, raw ? args : [BIN, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === okCode
        ? resolve(performance.now() - t0)
        : reject(new Error(`oabp ${args.join(" ")}: exit ${code}: ${err}`)),
    ),
  );
}

/** From spawning `oabp mcp` to its first stdout line: the answer to `initialize`. */
function timeBridge(env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, "mcp"], { env, stdio: ["pipe", "pipe", "ignore"] });
  child.stdin.write(
    `${JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    })}\n`,
  );
  return new Promise((resolve) => {
    createInterface({ input: child.stdout }).once("line", () => {
      const ms = performance.now() - t0;
      child.stdin.end();
      child.once("exit", () => resolve(ms));
    });
  });
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `median ${q(0.5).toFixed(0).padStart(4)} ms   p90 ${q(0.9).toFixed(0).padStart(4)} ms   min ${s[0]!.toFixed(0).padStart(4)} ms`;
};

if (!existsSync(path.join(ROOT, "packages/client/dist/cli/main.js"))) {
  console.error("bench:cli: the client is not built; run `npm run build:client` first");
  process.exit(2);
}
const dir = mkdtempSync(path.join(tmpdir(), "oabp-bench-cli-"));
const server = process.env.BENCH_CLI_URL ? undefined : await startServer(path.join(dir, "data"));
const url = process.env.BENCH_CLI_URL ?? server!.url;
const env = { PATH: process.env.PATH ?? "", HOME: dir, OABP_URL: url, OABP_CONFIG_DIR: path.join(dir, "config") };
try {
  const rows: [string, string[] | "bridge", number][] = [
    ["oabp --help", ["--help"], 300],
    ["oabp missions list --limit 5", ["missions", "list", "--limit", "5"], 300],
    ["oabp missions list --json", ["missions", "list", "--json"], 300],
    ["oabp mcp: initialize answered", "bridge", 1000],
  ];
  console.log(`bench:cli against ${url}, ${RUNS} runs each (node ${process.version})`);
  // The server's own share of a read: the same request from this (warm) process.
  const server: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    await (await fetch(`${url}/missions?limit=5`)).text();
    if (i > 0) server.push(performance.now() - t0);
  }
  console.log(`${"GET /missions?limit=5 (warm process)".padEnd(34)} ${stats(server)}`);
  // The floor of any read from a shell: a fresh node process doing one fetch, no CLI.
  const floor: number[] = [];
  const script = `await (await fetch(${JSON.stringify(`${url}/missions?limit=5`)})).text()`;
  for (let i = 0; i <= RUNS; i++) {
    const ms = await timeCli(["--input-type=module", "-e", script], env, true);
    if (i > 0) floor.push(ms);
  }
  console.log(`${"node -e fetch(…) (fresh, no CLI)".padEnd(34)} ${stats(floor)}`);
  // The CLI's own cost of a read: everything but the server (a closed port answers at once; exit 7).
  const own: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const ms = await timeCli(["missions", "list", "--server", "http://127.0.0.1:9"], env, false, 7);
    if (i > 0) own.push(ms);
  }
  console.log(`${"oabp missions list (closed port)".padEnd(34)} ${stats(own)}`);
  for (const [label, args, target] of rows) {
    await (args === "bridge" ? timeBridge(env) : timeCli(args, env)); // warm the OS file cache
    const xs: number[] = [];
    for (let i = 0; i < RUNS; i++) xs.push(await (args === "bridge" ? timeBridge(env) : timeCli(args, env)));
    const median = [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`${label.padEnd(34)} ${stats(xs)}   target < ${target} ms ${median < target ? "ok" : "MISSED"}`);
  }
} finally {
  server?.child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
