#!/usr/bin/env node
// The production build (docs/operations.md "Build and start"): esbuild compiles the server, the
// settlement worker and the operator commands, with the packages they import (but EXTERNAL), into
// plain ESM JavaScript with source maps under dist/, which is self-contained apart from those
// packages' node_modules: the files the code reads at run time
// (migrations, specs, the packed client, the stylesheet, the regex worker) are copied beside it
// in the repository's own layout, and the web board's page script is bundled here, once.
//
// dist/ stands for the repository root: the JavaScript sits at dist/*.js (chunks flat beside the
// entries), and every `import.meta.url` of a source module src/<dir>/<file>.ts is rewritten to the URL of
// dist/src/<dir>/<file>.ts, so a path the code builds relative to its own file (`../../drizzle`) lands on
// the copy under dist/. `tsx` keeps running the sources as they are in development and tests.
//
//   node scripts/build.mjs            build now
//   node scripts/build.mjs --if-stale build only when an input is newer than the build
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = path.join(ROOT, "dist");
const STAMP = "BUILD.json";

/** Entry name (dist/<name>.js) → source. */
export const ENTRIES = {
  main: "src/main.ts",
  worker: "src/worker.ts",
  guardian: "src/guardian.ts",
  "verify-receipt": "src/cli/verify-receipt.ts",
  "rotate-receipt-key": "scripts/rotate-receipt-key.ts",
  // Run by this script only: writes the web board's page script beside the build.
  "web-assets": "src/features/web/web.assets.ts",
};

/**
 * Files the built code reads at run time, relative to its own source file; copied to dist/ under
 * the same path. The Dockerfile's runtime stage needs nothing of the repository but dist/ and the
 * production node_modules (test/build/dockerfile.test.ts).
 */
export const RUNTIME_FILES = [
  "drizzle", // src/db/client.ts MIGRATIONS_DIR
  "specs", // src/features/specs/specs.bundles.ts
  "docs/decisions.md", // same
  "openapi/openapi.json", // same (its mtime)
  "packages/client/pack", // src/lib/client-package.ts (built by `prepare`; absent is allowed)
  "src/features/web/web.css", // src/features/web/web.assets.ts
  "src/lib/match-worker.mjs", // src/lib/safe-regex.ts (a worker thread's own file)
  "package.json", // read by nothing at run time; names the build's version for operators
];

/** Packages left to node_modules (see buildInto); everything else the server imports is bundled. */
export const EXTERNAL = ["@electric-sql/pglite", "swagger-ui-dist", "pino", "@opentelemetry/*", "esbuild"];

/** What a build is made of: when any is newer than the build, the build is stale. */
const INPUTS = [
  "src",
  "scripts/build.mjs",
  "scripts/rotate-receipt-key.ts",
  "tsconfig.json",
  "package-lock.json", // the bundled packages
  "patches", // postgres.js, bundled as patched
  ...RUNTIME_FILES,
];

/** Newest mtime under `p` (directories count: an added or removed file changes theirs). */
function newest(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  let t = st.mtimeMs;
  if (st.isDirectory()) for (const e of readdirSync(p)) t = Math.max(t, newest(path.join(p, e)));
  return t;
}

/**
 * Why the build must be (re)made, or null when it is current. A copy without the sources (the
 * Docker image's runtime stage) is always current.
 */
export function staleReason(root = ROOT) {
  const stamp = path.join(root, "dist", STAMP);
  if (!existsSync(stamp)) return "no build";
  if (!existsSync(path.join(root, "src"))) return null;
  const built = statSync(stamp).mtimeMs;
  for (const input of INPUTS) if (newest(path.join(root, input)) > built) return `${input} changed`;
  return null;
}

/**
 * Replaces `import.meta.url` in a source module by the URL its file has under dist/ (see the top
 * of this file). Matches the token only, so comments and strings naming it are rewritten too —
 * harmless, they mean the same file.
 */
function sourceUrlPlugin(root) {
  return {
    name: "oabp-source-url",
    setup(b) {
      b.onLoad({ filter: /\.(ts|tsx)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const rel = path.relative(root, args.path).split(path.sep).join("/");
        const text = readFileSync(args.path, "utf8").replaceAll(
          "import.meta.url",
          `new URL(${JSON.stringify(`./${rel}`)}, import.meta.url).href`,
        );
        return { contents: text, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
      });
    },
  };
}

/**
 * zod's `locales` namespace (`z.locales`, `core.locales`) as English only: zod re-exports its 60-odd
 * translations from both entry points, and since `z` is used as an object the bundler keeps all of
 * them — 368 KB compiled at every start (≈ 40 ms, docs/operations.md "Start time") for messages
 * the server never shows; English is zod's default and the only one it uses. Nothing of zod's own
 * code changes: the namespace module is what is bundled in its place.
 */
function zodEnglishOnlyPlugin() {
  return {
    name: "oabp-zod-english-only",
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
          ? { path: path.join(path.dirname(args.importer), "..", "locales", "index.js"), namespace: "zod-locales" }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
        contents: 'export { default as en } from "./en.js";',
        resolveDir: path.dirname(args.path),
      }));
    },
  };
}

async function buildInto(root, out) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    metafile: true,
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([k, v]) => [k, path.join(root, v)])),
    outdir: out,
    bundle: true,
    splitting: true, // lazy imports (OpenTelemetry, PGlite, MCP, …) stay lazy chunks
    format: "esm",
    platform: "node",
    target: "node20",
    // The packages are bundled too: loading hundreds of separate ES modules from node_modules
    // was 40 % of a start's CPU (docs/operations.md "Start time"). These stay installed: files
    // read beside their code (PGlite's wasm, Swagger UI), worker threads (pino's transports),
    // imported only when configured (OpenTelemetry), and the development fallback (esbuild).
    external: EXTERNAL,
    // CommonJS inside the ES module bundle requires Node's built-ins through this.
    banner: {
      js: `import { createRequire as __oabpRequire } from "node:module"; const require = __oabpRequire(import.meta.url);`,
    },
    chunkNames: "[name]-[hash]", // flat beside the entries: one base for every import.meta.url
    sourcemap: "linked",
    sourcesContent: false, // the map points at src/; stack traces need names and lines only
    legalComments: "linked", // the bundled packages' licence notices, in *.LEGAL.txt beside each file
    logLevel: "warning",
    plugins: [sourceUrlPlugin(root), zodEnglishOnlyPlugin()],
  });
  for (const f of RUNTIME_FILES) {
    const from = path.join(root, f);
    if (!existsSync(from)) continue;
    cpSync(from, path.join(out, f), { recursive: true, preserveTimestamps: true });
  }
  // The web board's page script, bundled by the same function the server runs in development.
  const { writeClientBundle } = await import(pathToFileURL(path.join(out, "web-assets.js")).href);
  await writeClientBundle(path.join(root, "src", "features", "web"));
  // The packages bundled in, for operators and for test/build/build.e2e.test.ts.
  const bundled = new Set();
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) bundled.add(m[1]);
  }
  const stamp = {
    built_at: new Date().toISOString(),
    entries: ENTRIES,
    external: EXTERNAL,
    bundled: [...bundled].sort(),
  };
  writeFileSync(path.join(out, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
}

/**
 * Builds into a fresh directory and swaps it in, under a lock directory so a server and a worker
 * started together on a stale checkout build once (the second waits, then finds it current).
 */
export async function build(root = ROOT, { ifStale = false, log = (m) => process.stderr.write(`${m}\n`) } = {}) {
  const lock = path.join(root, "dist.lock");
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      // A build that died holding the lock leaves it behind; none takes a minute.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 60_000)
        rmSync(lock, { recursive: true, force: true });
      else await sleep(100);
    }
  }
  try {
    const reason = staleReason(root);
    if (ifStale && reason === null) return false;
    log(`build: ${reason ?? "requested"}; compiling to dist/`);
    const tmp = path.join(root, `dist.tmp-${process.pid}`);
    rmSync(tmp, { recursive: true, force: true });
    await buildInto(root, tmp);
    rmSync(path.join(root, "dist"), { recursive: true, force: true });
    renameSync(tmp, path.join(root, "dist"));
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await build(ROOT, { ifStale: process.argv.includes("--if-stale") });
}
