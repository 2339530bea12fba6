import type { Context } from "hono";
import { ctxFromRequest } from "../../http/context";
import { type Coding, encodedOnce } from "../../http/compression";
import { sendBody } from "../../http/http-cache";
import { router } from "../../http/openapi";
import type { AppEnv } from "../../http/types";
import { AppError } from "../../lib/errors";
import { atomFeedRoute, rssAliasRoute, rssFeedRoute, sitemapFileRoute, sitemapRoute } from "./feeds.routes";
import { missionFeed, notModified, sitemap, sitemapFile, type CachedDoc } from "./feeds.service";

/**
 * Sends a cached document, or 304 when the request's validators match (RFC 9110 §15.4.5); with
 * `encoded`, its bytes compressed ahead instead of the body.
 */
function send(c: Context<AppEnv>, doc: CachedDoc, type: string, encoded?: { coding: Coding; bytes: Uint8Array }) {
  c.header("ETag", doc.etag);
  c.header("Last-Modified", doc.lastModified);
  c.header("Cache-Control", "public, max-age=60");
  if (
    notModified(doc, {
      ifNoneMatch: c.req.header("if-none-match"),
      ifModifiedSince: c.req.header("if-modified-since"),
    })
  )
    return c.body(null, 304) as never;
  c.header("Content-Type", `${type}; charset=utf-8`);
  if (encoded) {
    // As compression() does: the compressed bytes are another representation (RFC 9110 §8.8.1).
    c.header("ETag", doc.etag.startsWith("W/") ? doc.etag : `W/${doc.etag}`);
    c.header("Content-Encoding", encoded.coding);
  }
  return sendBody(c, encoded ? encoded.bytes : doc.body) as never;
}

/**
 * send() for the memoised sitemap index, whose bytes live a minute (feeds.service.ts `sitemap`):
 * when the request accepts br or gzip, the bytes compressed once for that document go out here,
 * so a crawler's hit neither hashes the body to find them nor has the compression middleware
 * read and rebuild the answer (bench/README.md "Scale mode"), nor, for a body too small to compress,
 * read it only to send it unchanged.
 */
async function sendMemoised(c: Context<AppEnv>, doc: CachedDoc & { body: Uint8Array }, type: string) {
  const encoder = c.get("encoder");
  if (!encoder) return send(c, doc, type);
  // Handled here either way: a body too small to compress goes out as compression() would send it.
  c.set("encoder", undefined);
  const pending = encodedOnce(encoder, doc.body);
  return send(c, doc, type, pending && { coding: encoder.coding, bytes: await pending });
}

/** The feed's path (without an `/api` prefix) and raw query, for its RFC 5005 paging links. */
function pageOf(c: Context<AppEnv>): { path: string; query: URLSearchParams } {
  const url = new URL(c.req.url);
  return { path: url.pathname.replace(/^\/api(?=\/)/, ""), query: url.searchParams };
}

export const feedsRouter = router()
  .openapi(rssFeedRoute, async (c) =>
    send(
      c,
      await missionFeed(ctxFromRequest(c), { format: "rss", filters: c.req.valid("query"), ...pageOf(c) }),
      "application/rss+xml",
    ),
  )
  .openapi(rssAliasRoute, async (c) =>
    send(
      c,
      await missionFeed(ctxFromRequest(c), { format: "rss", filters: c.req.valid("query"), ...pageOf(c) }),
      "application/rss+xml",
    ),
  )
  .openapi(atomFeedRoute, async (c) =>
    send(
      c,
      await missionFeed(ctxFromRequest(c), { format: "atom", filters: c.req.valid("query"), ...pageOf(c) }),
      "application/atom+xml",
    ),
  )
  .openapi(sitemapRoute, async (c) => sendMemoised(c, await sitemap(ctxFromRequest(c)), "application/xml"))
  .openapi(sitemapFileRoute, async (c) => {
    const doc = await sitemapFile(ctxFromRequest(c), { file: c.req.valid("param").file });
    if (!doc) throw new AppError("NOT_FOUND", "no such sitemap file");
    return send(c, doc, "application/xml");
  });
