import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export interface DirLock {
  path: string;
  release(): void;
}

function readOwner(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Locks this process holds: an owner pid equal to ours is only "ours" if we really took it. */
const held = new Set<string>();

/**
 * Exclusive lock on a data directory: `oabp.lock` holds the owner's pid. A lock left by a dead
 * process is taken over; a live owner makes start-up fail with a clear message. A lock naming our
 * own pid that we did not take is stale too (a container restarted as PID 1 after a crash).
 */
export function acquireDirLock(dir: string): DirLock {
  const file = path.join(dir, "oabp.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(file);
      let released = false;
      return {
        path: file,
        release() {
          if (released) return;
          released = true;
          held.delete(file);
          try {
            unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const text = readOwner(file);
      if (text === undefined) continue; // released meanwhile: try again
      const owner = Number.parseInt(text, 10);
      if (owner === process.pid && held.has(file))
        throw new Error(`data directory ${dir} is already open in this process`);
      if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && pidAlive(owner)) {
        throw new Error(`data directory ${dir} is in use by process ${owner} (lock file ${file})`);
      }
      // Stale: remove it only if it still names the dead owner (another starter may have just
      // replaced it), then race for a fresh one with O_EXCL above.
      if (readOwner(file) === text) unlinkSync(file);
    }
  }
  throw new Error(`could not lock data directory ${dir}`);
}
