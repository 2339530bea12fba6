import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, runCli, startLocalServer, stopServer } from "../helpers/cli";
import { BUILT_ENTRY, E2E_ADMIN, freshPostgresDatabase, ROOT, type ServerProcess } from "../helpers/process";

// A first run as a new operator and agent meet it (docs/first-mission.md, docs/operations.md
// "First run"): a busy port is one line naming PORT before any set-up; on a terminal the server
// prints a banner and human log lines (JSON lines otherwise: every other process test parses
// them); the walkthrough's keys live in the CLI's config directory, and .gitignore covers key
// files; CLI errors and `watch` say what to do next.

const dir = mkdtempSync(path.join(tmpdir(), "oabp-first-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function waitExit(child: ReturnType<typeof spawn>, limitMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no exit within ${limitMs} ms`));
    }, limitMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe("a busy port", () => {
  let holder: Server;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((r) => holder.listen(0, "127.0.0.1", () => r()));
  });
  afterAll(() => new Promise<void>((r) => holder.close(() => r())));

  it(
    "stops the server with one line naming PORT, before the data directory is set up",
    { timeout: 120_000 },
    async () => {
      const port = (holder.address() as { port: number }).port;
      const data = path.join(dir, "busy-data");
      const child = spawn(process.execPath, BUILT_ENTRY("main"), {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", OABP_DATA_DIR: data, DATABASE_URL: "" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (d) => (stdout += d));
      child.stderr!.on("data", (d) => (stderr += d));
      expect(await waitExit(child, 100_000)).toBe(1);
      expect(stderr.trim().split("\n")).toEqual([
        `port ${port} on 127.0.0.1 is in use: set PORT to a free port (PORT=0 picks one), or stop the process holding it`,
      ]);
      expect(stdout).toBe("");
      expect(existsSync(data)).toBe(false); // no database, lock, keys or admin token were made
    },
  );
});

describe("on a terminal", () => {
  it("prints a banner (URL, data dir, admin-token file, docs) and human log lines", { timeout: 180_000 }, async () => {
    const port = await freePort();
    const data = path.join(dir, "tty-data");
    // `script` gives the server a pseudo-terminal as its stdout, as a shell would.
    const cmd = [JSON.stringify(process.execPath), ...BUILT_ENTRY("main")].join(" ");
    const child = spawn("script", ["-qfec", cmd, "/dev/null"], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        OABP_PUBLIC_URL: `http://127.0.0.1:${port}`,
        OABP_DATA_DIR: data,
        OABP_ADMIN_TOKEN: "",
        DATABASE_URL: "",
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    const seen = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 170_000);
      child.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("client:")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    try {
      await seen;
    } finally {
      process.kill(-child.pid!, "SIGTERM");
      await waitExit(child, 60_000).catch(() => undefined);
    }
    const text = out.replace(/\r/g, "");
    expect(text).toContain(`OABP server: open http://127.0.0.1:${port}`);
    expect(text).toContain(`data:        ${path.resolve(data)} (embedded database)`);
    expect(text).toContain(`admin token: ${path.resolve(data, "admin-token")} (generated`);
    expect(text).toContain(`http://127.0.0.1:${port}/docs`);
    expect(text).toContain(`npm install -g http://127.0.0.1:${port}/client.tgz`);
    // Logs as `HH:MM:SS LEVEL message key=value`, not JSON.
    expect(text).toMatch(/^\d\d:\d\d:\d\d INFO {2}oabp server listening {2}port=\d+/m);
    expect(text.split("\n").filter((l) => l.startsWith('{"level"'))).toEqual([]);
  });
});

describe("keys and next steps", () => {
  let proc: ServerProcess;
  let dropDb: (() => Promise<void>) | undefined;
  let env: Record<string, string>;
  beforeAll(async () => {
    const serverEnv: Record<string, string> = {
      OABP_DATA_DIR: path.join(dir, "data"),
      OABP_APPEAL_DEFAULT: "on", // the production default: an award waits for its appeal window
      DATABASE_URL: "",
    };
    if (process.env.DATABASE_URL) {
      const fresh = await freshPostgresDatabase("oabp_first_run");
      serverEnv.DATABASE_URL = fresh.url;
      dropDb = fresh.drop;
    }
    proc = await startLocalServer(serverEnv);
    env = { OABP_URL: proc.base, OABP_CONFIG_DIR: path.join(dir, "config") };
  }, 180_000);
  afterAll(async () => {
    await stopServer(proc);
    await dropDb?.();
  });

  it(".gitignore covers key files", () => {
    expect(readFileSync(path.join(ROOT, ".gitignore"), "utf8").split("\n")).toContain("*.key");
  });

  it(
    "keygen --profile keeps the key in the config directory; errors and watch say what to do next",
    { timeout: 240_000 },
    async () => {
      const cli = (args: string[], o: { env?: Record<string, string>; input?: string } = {}) =>
        runCli(args, { ...o, env: { ...env, ...o.env } });
      for (const p of ["creator", "solver"]) {
        const k = await cli(["keygen", "--profile", p, "--json"]);
        expect(k.code, k.stderr).toBe(0);
        expect(k.json.file).toBe(path.join(dir, "config", "keys", `${p}.key`));
        expect(statSync(k.json.file).mode & 0o777).toBe(0o600);
        const login = await cli(["login", "--profile", p]); // no --key-file: the profile remembers it
        expect(login.code, login.stderr).toBe(0);
      }
      const creator = JSON.parse(readFileSync(path.join(dir, "config", "config.json"), "utf8")).profiles.creator;
      expect(creator.key).toEqual({ type: "key_file", path: path.join(dir, "config", "keys", "creator.key") });
      const again = await cli(["keygen", "--profile", "creator"]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("never overwrites");

      const me = (await cli(["balance", "--profile", "creator", "--json"])).json.agent_id as string;
      expect((await cli(["admin", "credit", me, "200000000"], { env: { OABP_ADMIN_TOKEN: E2E_ADMIN } })).code).toBe(0);
      const noToken = await cli(["admin", "credit", me, "1"]);
      expect(noToken.stderr).toContain("OABP_ADMIN_TOKEN");
      const created = await cli([
        "missions",
        "create",
        "--profile",
        "creator",
        "--title",
        "First run",
        "--description",
        "Judged by its creator, under the default appeal.",
        "--reward",
        "10",
        "--json",
      ]);
      expect(created.code, created.stderr).toBe(0);
      const id = created.json.id as string;

      // No profile: not the bare §1.4 code, but which profile to sign in or pick.
      const anon = await cli(["submit", id, "-"], { input: "x" });
      expect(anon.code).toBe(3);
      expect(anon.stderr).not.toContain("ANONYMOUS_SUBMISSION_REJECTED: ANONYMOUS_SUBMISSION_REJECTED");
      expect(anon.stderr).toContain('not signed in as profile "default"');
      expect(anon.stderr).toMatch(/--profile (creator \| solver|solver \| creator)/);

      const sub = await cli(["submit", id, "-", "--profile", "solver"], { input: "my answer" });
      expect(sub.code, sub.stderr).toBe(0);
      expect(sub.stdout).toMatch(/next_action\s+wait: the creator may award at any time/);
      expect(sub.stdout).toMatch(/content_hash\s+sha256:[0-9a-f]{64}/); // the receipt's spelling
      const subId = /^id\s+(\S+)/m.exec(sub.stdout)![1]!;
      expect((await cli(["award", id, subId, "--profile", "creator"])).code).toBe(0);

      // Under the default appeal, watch says why it does not settle yet, and how to wait.
      const watched = await cli(["watch", id, "--interval", "0.2"]);
      expect(watched.code).toBe(8);
      expect(watched.stderr).toContain("appeal window closes at");
      expect(watched.stderr).toContain(`oabp watch ${id} --wait-appeal`);
    },
  );
});
