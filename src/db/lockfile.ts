import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export interface DirLock {
  path: string;
  release(): void;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Exclusive lock on a data directory: `oabp.lock` holds the owner's pid. A lock left by a dead
 * process is taken over; a live owner makes start-up fail with a clear message.
 */
export function acquireDirLock(dir: string): DirLock {
  const file = path.join(dir, "oabp.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        path: file,
        release() {
          if (released) return;
          released = true;
          try {
            unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = Number.parseInt(readFileSync(file, "utf8").trim(), 10);
      if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && pidAlive(owner)) {
        throw new Error(`data directory ${dir} is in use by process ${owner} (lock file ${file})`);
      }
      if (owner === process.pid) throw new Error(`data directory ${dir} is already open in this process`);
      unlinkSync(file); // stale lock from a process that died
    }
  }
  throw new Error(`could not lock data directory ${dir}`);
}
