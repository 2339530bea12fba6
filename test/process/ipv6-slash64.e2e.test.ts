import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { ROOT } from "../helpers/process";
import { freshDatabase, tempDir, useCleanups } from "../helpers/process-suite";

// docs/abuse-edge.md "Client networks", over real IPv6: the real server process
// listens on an IPv6 address and 100 clients send from 100 different addresses of one /64 (each
// socket bound to its own source address), inside a network namespace made for the test
// (test/helpers/slash64-netns.ts). The per-network limits hold for the /64 at their production
// defaults — 20 of 100 nonces, 120 of 300 anonymous writes, 20 of 40 event streams — and another
// /64 is served (the quotas over a day, not a minute: the real process runs on the wall clock). Needs root (to make the namespace and add addresses) and real Postgres on this
// machine (reached through its Unix socket from inside the namespace).

const PG_SOCKET_DIR = "/var/run/postgresql";

function whyNot(): string | undefined {
  if (!onRealPostgres) return "needs real Postgres";
  if (!existsSync(PG_SOCKET_DIR)) return `no Postgres Unix socket in ${PG_SOCKET_DIR}`;
  try {
    execFileSync("unshare", ["-n", "--", "ip", "-6", "addr", "add", "fd00:64::1/128", "dev", "lo", "nodad"], {
      stdio: "ignore",
    });
  } catch {
    return "cannot make a network namespace with IPv6 addresses here (needs root, unshare and ip)";
  }
  return undefined;
}
const skip = whyNot();
if (skip) console.warn(`ipv6-slash64: skipped — ${skip}`);

describe.skipIf(skip !== undefined)("over real IPv6: 100 addresses of one /64 are one client", () => {
  const cleanups = useCleanups();

  it(
    "nonces, anonymous writes and event streams are limited per /64; another /64 is served",
    { timeout: 300_000 },
    async () => {
      const db = await freshDatabase(cleanups, "oabp_slash64");
      const dir = tempDir(cleanups, "oabp-slash64");
      const port = new URL(db.url).port || "5432";
      // The production quotas (the process helper lifts them for other tests), over a day instead of
      // a minute: the spawned server runs on the wall clock, and a slow run must not refill a token.
      const env = {
        DATABASE_URL: db.url,
        OABP_DATA_DIR: dir,
        OABP_RATE_LIMIT_SESSION_IP: "20/86400",
        OABP_RATE_LIMIT_WRITE_IP: "120/86400",
        OABP_RATE_LIMIT_WRITE_AGENT: "60/86400",
        OABP_RATE_LIMIT_WRITE_NET_AGENTS: "600/86400",
        OABP_EVENTS_MAX_PER_IP: "20",
      };
      const child = spawn(
        "unshare",
        [
          "-n",
          "--",
          process.execPath,
          "--import",
          "tsx",
          "test/helpers/slash64-netns.ts",
          JSON.stringify(env),
          `${PG_SOCKET_DIR}/.s.PGSQL.${port}`,
        ],
        { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
      );
      cleanups.push(() => child.kill("SIGKILL"));
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      const code = await new Promise<number | null>((r) => child.on("exit", r));
      expect(code, err).toBe(0);
      const r = JSON.parse(out.trim().split("\n").pop()!);
      expect(r.nonces).toEqual({ 200: 20, 429: 80 });
      expect(r.otherNonce).toBe(200);
      // Past the limit: 429; under it the bad SIWE body is refused on its merits (400/401).
      expect(r.writes[429]).toBe(180);
      expect(300 - r.writes[429]).toBe(120);
      expect(r.otherWrite).not.toBe(429);
      expect(r.streams).toEqual({ 200: 20, 429: 20 });
      expect(r.otherStream).toBe(200);
      expect(r.sourceAddresses).toBe(21); // 20 streams of the /64 from 20 addresses, 1 of the other
    },
  );
});
