import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../http/types";

// Every asset is served by the server itself (no CDN). The stylesheet is a file next to
// this one; the wallet script is bundled from ./client by esbuild once per process, at start-up
// (main.ts) or on first request, and kept in memory — so a clean clone needs no build step.

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CSS = readFileSync(path.join(HERE, "web.css"), "utf8");
const CSS_VERSION = createHash("sha256").update(CSS).digest("hex").slice(0, 12);

export const ASSET_PATHS = {
  css: `/assets/web.css?v=${CSS_VERSION}`,
  js: "/assets/web.js",
  swaggerCss: "/assets/swagger/swagger-ui.css",
  swaggerJs: "/assets/swagger/swagger-ui-bundle.js",
  docsJs: "/assets/docs.js",
};

let bundle: Promise<string> | undefined;

/** The wallet bundle (viem + client/app.ts), built once. Rejects if esbuild fails. */
export function walletBundle(): Promise<string> {
  bundle ??= (async () => {
    const esbuild = await import("esbuild");
    const out = await esbuild.build({
      entryPoints: [path.join(HERE, "client", "app.ts")],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2020",
      minify: true,
      legalComments: "none",
      write: false,
      logLevel: "silent",
    });
    return out.outputFiles[0]!.text;
  })();
  bundle.catch(() => {
    bundle = undefined;
  });
  return bundle;
}

const require = createRequire(import.meta.url);
const swaggerDir = () => path.dirname(require.resolve("swagger-ui-dist/package.json"));
const swaggerFiles = new Map<string, string>();
function swaggerFile(name: "swagger-ui.css" | "swagger-ui-bundle.js"): string {
  let f = swaggerFiles.get(name);
  if (f === undefined) {
    f = readFileSync(path.join(swaggerDir(), name), "utf8");
    swaggerFiles.set(name, f);
  }
  return f;
}

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

function send(c: Context<AppEnv>, body: string, type: string, cache: string) {
  c.header("Content-Type", type);
  c.header("Cache-Control", cache);
  c.header("X-Content-Type-Options", "nosniff");
  return c.body(body);
}

export function registerAssets(app: Hono<AppEnv>): void {
  const day = "public, max-age=86400";
  app.get("/assets/web.css", (c) =>
    send(
      c,
      CSS,
      "text/css; charset=utf-8",
      c.req.query("v") === CSS_VERSION ? "public, max-age=31536000, immutable" : day,
    ),
  );
  app.get("/assets/web.js", async (c) =>
    send(c, await walletBundle(), "text/javascript; charset=utf-8", "public, max-age=300"),
  );
  app.get("/assets/docs.js", (c) => send(c, DOCS_JS, "text/javascript; charset=utf-8", day));
  app.get("/assets/swagger/swagger-ui.css", (c) =>
    send(c, swaggerFile("swagger-ui.css"), "text/css; charset=utf-8", day),
  );
  app.get("/assets/swagger/swagger-ui-bundle.js", (c) =>
    send(c, swaggerFile("swagger-ui-bundle.js"), "text/javascript; charset=utf-8", day),
  );
}
