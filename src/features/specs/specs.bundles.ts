import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { zipSync, type Zippable } from "fflate";
import { stringify } from "yaml";

// AIP-1 §9.2 spec bundles: /specs/AIP-{N}.zip (every file of specs/AIP-{N}/, at the archive root)
// and /specs.zip (every file of specs/, under its folder). Built once at start, in memory, with
// fixed entry timestamps and a sorted entry order, so the same inputs give the same bytes (and
// ETag) on every start. Two AIP-1 entries come from outside specs/: decisions.md (docs/decisions.md,
// as it stands) and openapi-aip-1.yaml (the served OpenAPI document, generated).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SPECS_DIR = path.join(ROOT, "specs");
/** The server's protocol decisions, shipped as `AIP-1/decisions.md`. */
export const DECISIONS_FILE = path.join(ROOT, "docs", "decisions.md");
/** Stands in for the generated OpenAPI document's mtime (it is drift-tested against the code). */
const OPENAPI_FILE = path.join(ROOT, "openapi", "openapi.json");

const AIP_DIR = /^AIP-(\d+)$/;
/** Local-time fields (zip stores DOS local time): the same entry bytes in every time zone. */
const ENTRY_MTIME = new Date(1980, 0, 1, 0, 0, 0);

export interface SpecBundle {
  /** File name: `AIP-1.zip`, `specs.zip`. */
  name: string;
  bytes: Uint8Array;
  /** Strong validator: `"sha256-<hex>"` of the bytes. */
  etag: string;
  /** Newest mtime of the files that went in, to the second. */
  lastModified: Date;
  /** Entry names, sorted. */
  entries: string[];
}

export interface SpecSources {
  specsDir?: string;
  decisionsFile?: string;
  openapiFile?: string;
  /** The OpenAPI document to ship as `AIP-1/openapi-aip-1.yaml`. */
  openapi: () => unknown;
}

interface SourceFile {
  data: Uint8Array;
  mtimeMs: number;
}

function walk(dir: string, prefix = ""): Map<string, SourceFile> {
  const out = new Map<string, SourceFile>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [k, v] of walk(full, rel)) out.set(k, v);
    else if (entry.isFile()) out.set(rel, { data: readFileSync(full), mtimeMs: statSync(full).mtimeMs });
  }
  return out;
}

function bundle(name: string, files: Map<string, SourceFile>): SpecBundle {
  const entries = [...files.keys()].sort();
  const zippable: Zippable = {};
  let newest = 0;
  for (const e of entries) {
    const f = files.get(e)!;
    zippable[e] = [f.data, { mtime: ENTRY_MTIME, level: 9 }];
    newest = Math.max(newest, f.mtimeMs);
  }
  const bytes = zipSync(zippable, { mtime: ENTRY_MTIME });
  const etag = `"sha256-${createHash("sha256").update(bytes).digest("hex")}"`;
  return { name, bytes, etag, lastModified: new Date(Math.floor(newest / 1000) * 1000), entries };
}

/** Every bundle by file name (`AIP-1.zip` …, `specs.zip`). A missing specs/ folder gives none. */
export function buildSpecBundles(src: SpecSources): Map<string, SpecBundle> {
  const specsDir = src.specsDir ?? SPECS_DIR;
  const out = new Map<string, SpecBundle>();
  if (!existsSync(specsDir)) return out;
  const all = walk(specsDir);

  // Generated AIP-1 documents (they replace stored files of the same name).
  const decisionsFile = src.decisionsFile ?? DECISIONS_FILE;
  const openapiFile = src.openapiFile ?? OPENAPI_FILE;
  const mtime = (f: string) => (existsSync(f) ? statSync(f).mtimeMs : 0);
  if (existsSync(decisionsFile)) all.set("AIP-1/decisions.md", { data: readFileSync(decisionsFile), mtimeMs: mtime(decisionsFile) });
  const yaml = stringify(src.openapi(), { lineWidth: 0, aliasDuplicateObjects: false });
  all.set("AIP-1/openapi-aip-1.yaml", { data: Buffer.from(yaml), mtimeMs: mtime(openapiFile) });

  const perAip = new Map<string, Map<string, SourceFile>>();
  for (const [rel, f] of all) {
    const [top, ...rest] = rel.split("/");
    if (!top || rest.length === 0 || !AIP_DIR.test(top)) continue;
    if (!perAip.has(top)) perAip.set(top, new Map());
    perAip.get(top)!.set(rest.join("/"), f);
  }
  for (const [dir, files] of [...perAip].sort(([a], [b]) => Number(AIP_DIR.exec(a)![1]) - Number(AIP_DIR.exec(b)![1]))) {
    out.set(`${dir}.zip`, bundle(`${dir}.zip`, files));
  }
  out.set("specs.zip", bundle("specs.zip", all));
  return out;
}

/**
 * A cheap fingerprint of every input (path, size, mtime): the served bundles are rebuilt when it
 * changes, so "regenerated whenever a spec file changes" (AIP-1 §9.2) holds without a restart.
 */
export function sourcesStamp(src: Omit<SpecSources, "openapi">): string {
  const specsDir = src.specsDir ?? SPECS_DIR;
  const parts: string[] = [];
  const stat = (f: string) => (existsSync(f) ? statSync(f) : undefined);
  const visit = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full, `${prefix}${entry.name}/`);
      else if (entry.isFile()) {
        const st = statSync(full);
        parts.push(`${prefix}${entry.name}:${st.size}:${st.mtimeMs}`);
      }
    }
  };
  if (existsSync(specsDir)) visit(specsDir, "");
  for (const f of [src.decisionsFile ?? DECISIONS_FILE, src.openapiFile ?? OPENAPI_FILE]) {
    const st = stat(f);
    parts.push(`${f}:${st ? `${st.size}:${st.mtimeMs}` : "-"}`);
  }
  return parts.join("\n");
}
