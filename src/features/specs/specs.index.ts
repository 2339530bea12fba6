import type { Context, Hono } from "hono";
import type { Deps } from "../../deps";
import { sendError } from "../../http/errors";
import type { AppEnv } from "../../http/types";
import { buildSpecBundles, type SpecBundle, type SpecSources } from "./specs.bundles";

const CACHE = "public, max-age=3600";

/** Does an If-None-Match header match this strong ETag (weak comparison, RFC 9110 §13.1.2)? */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

/**
 * AIP-1 §9.2: GET and HEAD /specs/AIP-{N}.zip and /specs.zip. The bundles are built here, once,
 * when the app is created (restart to pick up a changed spec file); an unknown bundle is the JSON 404.
 */
export function registerSpecs(app: Hono<AppEnv>, _deps: Deps, openapi: SpecSources["openapi"], sources: Omit<SpecSources, "openapi"> = {}): Map<string, SpecBundle> {
  const bundles = buildSpecBundles({ ...sources, openapi });
  const serve = (c: Context<AppEnv>, name: string) => {
    const b = bundles.get(name);
    if (!b) return sendError(c, "NOT_FOUND", `no spec bundle ${name}`, { available: [...bundles.keys()].map((n) => (n === "specs.zip" ? "/specs.zip" : `/specs/${n}`)) });
    c.header("ETag", b.etag);
    c.header("Last-Modified", b.lastModified.toUTCString());
    c.header("Cache-Control", CACHE);
    const inm = c.req.header("if-none-match");
    const ims = c.req.header("if-modified-since");
    const notModified = inm !== undefined ? matches(inm, b.etag) : ims !== undefined && !Number.isNaN(Date.parse(ims)) && b.lastModified.getTime() <= Date.parse(ims);
    if (notModified) return c.body(null, 304);
    c.header("Content-Type", "application/zip");
    c.header("Content-Disposition", `attachment; filename="${b.name}"`);
    c.header("Content-Length", String(b.bytes.byteLength));
    return c.body(b.bytes as Uint8Array<ArrayBuffer>);
  };
  // Hono answers HEAD with the GET handler's headers and no body.
  app.get("/specs.zip", (c) => serve(c, "specs.zip"));
  app.get("/specs/:name", (c) => serve(c, c.req.param("name")));
  return bundles;
}
