import type { Context, Hono } from "hono";
import type { Deps } from "../../deps";
import { sendError } from "../../http/errors";
import type { AppEnv } from "../../http/types";
import { buildSpecBundles, sourcesStamp, type SpecBundle, type SpecSources } from "./specs.bundles";

/** How often a request may look at the inputs' mtimes (a directory walk of a few files). */
const RECHECK_MS = 2000;

const CACHE = "public, max-age=3600";

/** Does an If-None-Match header match this strong ETag (weak comparison, RFC 9110 §13.1.2)? */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

/**
 * AIP-1 §9.2: GET and HEAD /specs/AIP-{N}.zip and /specs.zip. The bundles are built on the first
 * request for one — not at start-up, where building them (the OpenAPI document as YAML, then
 * deflate at level 9) was a third of the server's start CPU (docs/operations.md "Start time") —
 * and rebuilt when an input changes (`current`); an unknown bundle is the JSON 404. Returns
 * the bundles, built on first call.
 */
export function registerSpecs(app: Hono<AppEnv>, { deps, ...sources }: SpecSources & { deps: Deps }): () => Map<string, SpecBundle> {
  let bundles: Map<string, SpecBundle> | undefined;
  // AIP-1 §9.2 "SHOULD be regenerated whenever a spec file changes": at most every RECHECK_MS a
  // request compares the inputs' fingerprint and rebuilds when it moved. Every instance does the
  // same from the same files, and the build is deterministic, so ETags agree.
  let stamp = "";
  let checkedAt = 0;
  const current = (): Map<string, SpecBundle> => {
    const now = deps.clock.now().getTime();
    if (bundles && now - checkedAt < RECHECK_MS) return bundles;
    checkedAt = now;
    const next = sourcesStamp(sources);
    if (bundles && next === stamp) return bundles;
    stamp = next;
    bundles = buildSpecBundles(sources);
    return bundles;
  };
  const serve = (c: Context<AppEnv>, name: string) => {
    const all = current();
    const b = all.get(name);
    if (!b) return sendError(c, "NOT_FOUND", `no spec bundle ${name}`, { available: [...all.keys()].map((n) => (n === "specs.zip" ? "/specs.zip" : `/specs/${n}`)) });
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
  return current;
}
