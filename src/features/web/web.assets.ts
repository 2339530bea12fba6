import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../http/types";
import { appleTouchIconPng, faviconIco, ICON_SVG } from "./web.icons";

// Every asset is served by the server itself (no CDN), under a content-hashed URL
// cached for a year as immutable (docs/web.md "Delivery"): a new version is a new URL, so no
// reader ever runs an old script against a new page. The stylesheet is a file next to this one;
// the page script and its signing chunk are bundled from ./client by esbuild — by the production
// build (scripts/build.mjs), or once per process at start-up (main.ts) or on the first page when
// run from the sources — and kept in memory.

const HERE = path.dirname(fileURLToPath(import.meta.url));
const hash12 = (s: string | Uint8Array) => createHash("sha256").update(s).digest("hex").slice(0, 12);

const CSS = readFileSync(path.join(HERE, "web.css"), "utf8");
const IMMUTABLE = "public, max-age=31536000, immutable";
const DAY = "public, max-age=86400";

const require = createRequire(import.meta.url);
const swaggerDir = () => path.dirname(require.resolve("swagger-ui-dist/package.json"));
// The Swagger UI files are named by the package's version: the same version is the same bytes.
const SWAGGER_VERSION = (
  JSON.parse(readFileSync(path.join(swaggerDir(), "package.json"), "utf8")) as { version: string }
).version.replace(/[^0-9A-Za-z.-]/g, "");

/** Starts Swagger UI on /docs (a file, not inline script, so the CSP needs no hash for it). */
// Swagger UI 5.35 renders at most 128 operations of one document: past that only the first tag
// shows (measured: 128 stub operations render, 129 show one tag). The reference is therefore
// split by tag into two documents built from /openapi.json in the page, one shown at a time;
// /openapi.json itself stays whole.
const OPERATOR_TAGS = [
  "admin",
  "moderation",
  "operator",
  "events",
  "amendments",
  "oadp",
  "adp",
  "disputes",
  "qa",
  "messages",
];
const DOCS_JS = `window.addEventListener("load",function(){var second=${JSON.stringify(OPERATOR_TAGS)};var sel=document.getElementById("api-part");fetch("/openapi.json").then(function(r){return r.json()}).then(function(full){function part(name){var doc=JSON.parse(JSON.stringify(full));var paths={};Object.keys(doc.paths).forEach(function(p){var item=doc.paths[p];var kept={};var any=false;Object.keys(item).forEach(function(m){var op=item[m];var tag=op&&op.tags&&op.tags[0];if(!tag){kept[m]=op;return}if((second.indexOf(tag)>=0)===(name==="operator")){kept[m]=op;any=true}});if(any)paths[p]=kept});doc.paths=paths;return doc}function show(){window.ui=SwaggerUIBundle({spec:part(sel.value),dom_id:"#swagger",deepLinking:true,tryItOutEnabled:false})}sel.addEventListener("change",show);show()})});`;

/**
 * /docs on a phone: Swagger UI's own layout assumes a desktop (fixed paddings, unwrapped
 * operation paths, wide tables); these rules let it and the page's recipes fit a 360 px screen.
 */
const DOCS_CSS = `pre{white-space:pre-wrap;overflow-wrap:anywhere}
.swagger-ui .wrapper{padding:0;max-width:100%}
.swagger-ui .info{margin:16px 0}
.swagger-ui .opblock .opblock-summary{flex-wrap:wrap}
.swagger-ui .opblock .opblock-summary-path{max-width:100%;overflow-wrap:anywhere;word-break:break-all;flex-shrink:1}
.swagger-ui .opblock .opblock-summary-description{flex-basis:100%}
.swagger-ui table{display:block;overflow-x:auto;max-width:100%}
.swagger-ui .model-box,.swagger-ui .highlight-code,.swagger-ui .microlight{max-width:100%;overflow-x:auto}
.swagger-ui .scheme-container{padding:8px 0}
#swagger{max-width:100%}
#api-part{max-width:100%}
`;

/** A served file: its bytes (or text), its type, and the Cache-Control its URL allows. */
interface Asset {
  body: string | Uint8Array;
  type: string;
  cache: string;
}

/** Immutable assets by URL path: filled at load, the script bundle once built. */
const assets = new Map<string, Asset>();
function add(name: string, ext: string, body: string | Uint8Array, type: string): string {
  const p = `/assets/${name}-${hash12(body)}.${ext}`;
  assets.set(p, { body, type, cache: IMMUTABLE });
  return p;
}

/** The PNG icons, drawn on first request (drawing them costs tens of ms of every start otherwise). */
const ICO = once(faviconIco);
const TOUCH = once(appleTouchIconPng);
function once(make: () => Uint8Array): () => Uint8Array {
  let bytes: Uint8Array | undefined;
  return () => (bytes ??= make());
}

/** The assets' URLs (content-hashed). `js` is known once the script bundle is built (clientBundle). */
export const ASSET_PATHS = {
  css: add("web", "css", CSS, "text/css; charset=utf-8"),
  docsCss: add("docs", "css", DOCS_CSS, "text/css; charset=utf-8"),
  docsJs: add("docs", "js", DOCS_JS, "text/javascript; charset=utf-8"),
  swaggerCss: `/assets/swagger-${SWAGGER_VERSION}/swagger-ui.css`,
  swaggerJs: `/assets/swagger-${SWAGGER_VERSION}/swagger-ui-bundle.js`,
  icon: add("icon", "svg", ICON_SVG, "image/svg+xml"),
  /** The page script's entry; undefined until clientBundle() has resolved (pages await it first). */
  get js(): string | undefined {
    return entryPath;
  },
};

let entryPath: string | undefined;
let bundle: Promise<string> | undefined;

/** The page script's files as `scripts/build.mjs` wrote them beside the built server. */
const PREBUILT = path.join(HERE, "client-built");

/**
 * The page script, split by esbuild (docs/web.md "Scripts"): the entry every page loads
 * (client/app.ts) and the signing chunk it imports on demand (client/wallet.ts, viem); each file
 * named by its content hash. Built once — by the production build ahead of time (the built
 * server reads the files, and needs no esbuild), else here; resolves to the entry's URL.
 * Rejects if esbuild fails.
 */
export function clientBundle(): Promise<string> {
  bundle ??= (async () => {
    const files = existsSync(PREBUILT)
      ? readdirSync(PREBUILT).map((name) => ({ name, text: readFileSync(path.join(PREBUILT, name), "utf8") }))
      : await bundleClientFiles(HERE);
    let entry: string | undefined;
    for (const f of files) {
      const urlPath = `/assets/js/${f.name}`;
      assets.set(urlPath, { body: f.text, type: "text/javascript; charset=utf-8", cache: IMMUTABLE });
      if (f.name.startsWith("app-")) entry = urlPath;
    }
    if (!entry) throw new Error("esbuild produced no entry script");
    entryPath = entry;
    return entry;
  })();
  bundle.catch(() => {
    bundle = undefined;
  });
  return bundle;
}

/** Bundles the page script from `<webDir>/client/app.ts`: the files' names and texts. */
async function bundleClientFiles(webDir: string): Promise<{ name: string; text: string }[]> {
  const esbuild = await import("esbuild");
  const out = await esbuild.build({
    entryPoints: { app: path.join(webDir, "client", "app.ts") },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    outdir: "/assets/js",
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles.map((f) => ({ name: path.basename(f.path), text: f.text }));
}

/** scripts/build.mjs: bundles the page script from `webDir` into the built server's PREBUILT. */
export async function writeClientBundle(webDir: string): Promise<void> {
  mkdirSync(PREBUILT, { recursive: true });
  for (const f of await bundleClientFiles(webDir)) writeFileSync(path.join(PREBUILT, f.name), f.text);
}

/** The bytes of one built client file by URL path (tests and the page-weight bench read them). */
export function assetAt(urlPath: string): Asset | undefined {
  return assets.get(urlPath);
}

const swaggerFiles = new Map<string, string>();
function swaggerFile(name: "swagger-ui.css" | "swagger-ui-bundle.js"): string {
  let f = swaggerFiles.get(name);
  if (f === undefined) {
    f = readFileSync(path.join(swaggerDir(), name), "utf8");
    swaggerFiles.set(name, f);
  }
  return f;
}

function send(c: Context<AppEnv>, a: Asset) {
  c.header("Content-Type", a.type);
  c.header("Cache-Control", a.cache);
  c.header("X-Content-Type-Options", "nosniff");
  return typeof a.body === "string" ? c.body(a.body) : c.body(a.body as Uint8Array<ArrayBuffer>);
}

export function registerAssets(app: Hono<AppEnv>): void {
  app.get("/assets/*", async (c, next) => {
    if (c.req.path.startsWith("/assets/js/")) await clientBundle();
    const a = assets.get(c.req.path);
    return a ? send(c, a) : next();
  });
  // The unversioned names earlier pages linked to (and a cached page may still name): a day.
  app.get("/assets/web.css", (c) => send(c, { body: CSS, type: "text/css; charset=utf-8", cache: DAY }));
  const swagger = (name: "swagger-ui.css" | "swagger-ui-bundle.js", type: string) => (c: Context<AppEnv>) =>
    send(c, { body: swaggerFile(name), type, cache: IMMUTABLE });
  app.get(ASSET_PATHS.swaggerCss, swagger("swagger-ui.css", "text/css; charset=utf-8"));
  app.get(ASSET_PATHS.swaggerJs, swagger("swagger-ui-bundle.js", "text/javascript; charset=utf-8"));
  // What browsers and home screens ask for by fixed name, before or without reading the page.
  const fixed = (body: () => Uint8Array | string, type: string) => (c: Context<AppEnv>) =>
    send(c, { body: body(), type, cache: DAY });
  app.get("/favicon.ico", fixed(ICO, "image/x-icon"));
  app.get(
    "/favicon.svg",
    fixed(() => ICON_SVG, "image/svg+xml"),
  );
  app.get("/apple-touch-icon.png", fixed(TOUCH, "image/png"));
  app.get("/apple-touch-icon-precomposed.png", fixed(TOUCH, "image/png"));
}
