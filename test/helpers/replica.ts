import { execFileSync } from "node:child_process";
import { accessSync, chownSync, constants, mkdtempSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./cli";

/**
 * A primary and a streaming replica started from Debian's PostgreSQL binaries, for
 * test/process/replica.e2e.test.ts. The test does not replicate from the shared server
 * on 127.0.0.1:5432: its pg_hba.conf has no `replication` line ("no pg_hba.conf entry for
 * replication connection from host 127.0.0.1, user postgres"), so the test starts a primary of its
 * own (initdb, trust, `host replication all 127.0.0.1/32 trust`) and a standby made with
 * `pg_basebackup -R` from it.
 */

/** The newest /usr/lib/postgresql/<v>/bin with initdb, pg_ctl and pg_basebackup, or null. */
export function postgresBinDir(): string | null {
  for (const v of ["17", "16", "15", "14"]) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    try {
      for (const b of ["initdb", "pg_ctl", "pg_basebackup"]) accessSync(path.join(dir, b), constants.X_OK);
      return dir;
    } catch {
      /* next */
    }
  }
  return null;
}

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  stop(): Promise<void>;
}

/** PostgreSQL refuses to run as root: as root every binary runs as the `postgres` user. */
function run(bin: string, args: string[]) {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
}

export async function startReplicaPair(binDir: string): Promise<ReplicaPair> {
  const dir = mkdtempSync(path.join(tmpdir(), "oabp-replica-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const primary = path.join(dir, "primary");
  const standby = path.join(dir, "standby");
  const [p1, p2] = [await freePort(), await freePort()];
  const bin = (b: string) => path.join(binDir, b);
  run(bin("initdb"), ["-D", primary, "-U", "postgres", "--auth=trust", "--no-sync"]);
  appendFileSync(
    path.join(primary, "postgresql.conf"),
    [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      "wal_level = replica",
      "max_wal_senders = 4",
      "hot_standby = on",
      "fsync = off",
      "shared_buffers = 16MB",
      "",
    ].join("\n"),
  );
  writeFileSync(
    path.join(primary, "pg_hba.conf"),
    "local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n",
  );
  const started: string[] = [];
  const stop = async () => {
    for (const d of started.reverse()) {
      try {
        run(bin("pg_ctl"), ["-D", d, "-m", "immediate", "-w", "stop"]);
      } catch {
        /* already down */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(bin("pg_ctl"), ["-D", primary, "-l", path.join(dir, "primary.log"), "-o", `-p ${p1}`, "-w", "start"]);
    started.push(primary);
    run(bin("pg_basebackup"), [
      "-h",
      "127.0.0.1",
      "-p",
      String(p1),
      "-U",
      "postgres",
      "-D",
      standby,
      "-R",
      "-X",
      "stream",
    ]);
    run(bin("pg_ctl"), ["-D", standby, "-l", path.join(dir, "standby.log"), "-o", `-p ${p2}`, "-w", "start"]);
    started.push(standby);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${p1}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${p2}/postgres`,
    stop,
  };
}
