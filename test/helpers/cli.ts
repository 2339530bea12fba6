import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { ROOT, startServer, type ServerProcess } from "./process";

// Runs the `oabp` command line as a user would (its own process, its own config directory; the
// package's built bin, which the e2e project's global setup rebuilds when its sources changed) and
// boots servers whose public URL is their real address, as `npm start` on a laptop is.

const CLI_MAIN = path.join(ROOT, "packages/client/dist/cli/main.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (commands run with --json). */
  json: any;
}

export function runCli(
  args: string[],
  opts: { env?: Record<string, string>; input?: string | Buffer; timeoutMs?: number } = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...opts.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(opts.input ?? "");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`oabp ${args.join(" ")} did not finish within ${opts.timeoutMs ?? 60_000} ms: ${stderr}`));
    }, opts.timeoutMs ?? 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

/** A free loopback port (bound then released: a server started on it right away gets it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The real server process with OABP_PUBLIC_URL = its own address (SIWE domain, receipt issuer). */
export async function startLocalServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  // A generous start-up limit: these files boot a process on a shared, often busy CI machine.
  return startServer(
    { PORT: String(port), OABP_PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    { startTimeoutMs: 150_000 },
  );
}

export async function stopServer(proc: ServerProcess | undefined): Promise<void> {
  if (proc && proc.child.exitCode === null) {
    proc.child.kill("SIGTERM");
    await proc.exited;
  }
}
