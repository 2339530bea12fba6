import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../http/types";

// Every asset is served by the server itself (issue 17: no CDN). The stylesheet is a file next to
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
const DOCS_JS = `window.addEventListener("load",function(){window.ui=SwaggerUIBundle({url:"/openapi.json",dom_id:"#swagger",deepLinking:true,tryItOutEnabled:false});});`;

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
