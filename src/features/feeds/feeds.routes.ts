import { createRoute, z } from "@hono/zod-openapi";
import { routes } from "../../http/route";
import { errors } from "../../http/openapi";
import { ListMissionsQuery } from "../missions";

const route = routes("discovery");

const Validators = z.object({
  etag: z.string().openapi({ description: "Strong validator of the document" }),
  "last-modified": z.string().openapi({ description: "HTTP-date the content was read" }),
});

const ConditionalHeaders = z.object({
  "if-none-match": z.string().optional(),
  "if-modified-since": z.string().optional(),
});

const xml = (type: string, description: string) => ({
  description,
  headers: Validators,
  content: { [type]: { schema: z.string().openapi({ format: "xml" }) } },
});

const NOT_MODIFIED = {
  304: { description: "Not modified (If-None-Match / If-Modified-Since matched)", headers: Validators },
};

const FEED_QUERY_NOTE =
  "Filtered by the same query as GET /missions; without `status`, open missions only; newest first. " +
  'Paged as RFC 5005 §3: `first` and `next` link relations (`atom:link` in RSS) carry `limit` and the keyset `cursor`, so a crawler walks history by following `rel="next"`.';

const feedRoute = (path: string, format: "rss" | "atom") =>
  createRoute({
    method: "get",
    path,
    tags: ["discovery"],
    summary: format === "rss" ? "Missions as RSS 2.0 (AIP-1 §7)" : "Missions as Atom, RFC 4287 (AIP-1 §7)",
    description: FEED_QUERY_NOTE,
    request: { query: ListMissionsQuery, headers: ConditionalHeaders },
    responses: {
      200: format === "rss" ? xml("application/rss+xml", "RSS 2.0 feed") : xml("application/atom+xml", "Atom feed"),
      ...NOT_MODIFIED,
      ...errors(),
    },
  });

export const rssFeedRoute = feedRoute("/feed.xml", "rss");
export const rssAliasRoute = feedRoute("/missions.rss", "rss");
export const atomFeedRoute = feedRoute("/feed.atom", "atom");

export const sitemapRoute = route.get(
  "/sitemap.xml",
  "Sitemap index (sitemaps.org 0.9): the static file and one file per 45 000 public missions, each with lastmod",
  {
    in: { headers: ConditionalHeaders },
    responses: { 200: xml("application/xml", "sitemaps.org 0.9 sitemapindex"), ...NOT_MODIFIED },
  },
);

export const sitemapFileRoute = route.get(
  "/sitemaps/{file}",
  "One sitemap of the index: static.xml, or missions-{k}.xml (mission pages in creation order, at most 50 000 URLs and 50 MB)",
  {
    in: {
      params: z.object({
        file: z
          .string()
          .max(40)
          .openapi({ param: { name: "file", in: "path" }, example: "missions-0.xml" }),
      }),
      headers: ConditionalHeaders,
    },
    responses: { 200: xml("application/xml", "sitemaps.org 0.9 urlset"), ...NOT_MODIFIED },
    errors: ["NOT_FOUND"],
  },
);
