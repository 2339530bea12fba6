import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

// Global setup of the e2e project: the packed client (packages/client/pack/*.tgz, which spawned
// servers serve at /client.tgz) is rebuilt when any of its sources is newer than it. `npm ci`
// builds it (the root `prepare` script); this keeps it true after an edit without a manual
// `npm run build:client`. Run once, before any worker, so no two files build it at once.

const PKG = path.resolve(import.meta.dirname, "../../packages/client");

function newest(p: string): number {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((e) => newest(path.join(p, e))));
}

export default function setup(): void {
  const shared = globalThis as { oabpClientPack?: true };
  if (shared.oabpClientPack) return;
  shared.oabpClientPack = true;
  const sources = Math.max(
    newest(path.join(PKG, "src")),
    newest(path.join(PKG, "package.json")),
    newest(path.join(PKG, "scripts")),
  );
  let packed = 0;
  try {
    packed = Math.min(...readdirSync(path.join(PKG, "pack")).map((f) => newest(path.join(PKG, "pack", f))));
  } catch {
    packed = 0;
  }
  if (!(packed > sources))
    execFileSync(process.execPath, [path.join(PKG, "scripts/build.mjs"), "--pack"], { stdio: "inherit" });
}
