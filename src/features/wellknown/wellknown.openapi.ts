import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../http/types";
import { AGENT_PROTOCOL_PATH, OAUTH_PROTECTED_RESOURCE_PATH, SECURITY_TXT_PATH } from "./wellknown.documents";

// The discovery routes that are plain Hono routes (fixed bytes, text or zip bodies) rather than
// zod-openapi routes: documented here so /openapi.json lists every surface. They are
// served at the origin root only, never under /api.

const text = (description: string) => ({ description, content: { "text/plain": { schema: z.string() } } });
const json = (description: string) => ({
  description,
  content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
});
const zip = {
  description:
    "The bundle (application/zip), with ETag, Last-Modified and Content-Disposition; HEAD answers the same headers and Content-Length",
  headers: {
    ETag: { schema: { type: "string" as const } },
    "Last-Modified": { schema: { type: "string" as const } },
    "Content-Length": { schema: { type: "integer" as const } },
  },
  content: { "application/zip": { schema: z.string().openapi({ format: "binary" }) } },
};
const notModified = { description: "Not modified (If-None-Match / If-Modified-Since)" };
const root = "Served at the origin root only (not under /api).";

export function registerDiscoveryDocs(api: OpenAPIHono<AppEnv>): void {
  const r = api.openAPIRegistry;
  r.registerPath({
    method: "get",
    path: OAUTH_PROTECTED_RESOURCE_PATH,
    tags: ["discovery"],
    summary: "RFC 9728 protected-resource metadata (AIP-1 §9.1); every path below it answers the same document",
    description: root,
    responses: { 200: json("{resource, authorization_servers: [], bearer_methods_supported, …}") },
  });
  r.registerPath({
    method: "get",
    path: AGENT_PROTOCOL_PATH,
    tags: ["discovery"],
    summary: "OADP hub descriptor (protocol oadp/1.0)",
    description: root,
    responses: { 200: json("The OADP document") },
  });
  r.registerPath({
    method: "get",
    path: SECURITY_TXT_PATH,
    tags: ["discovery"],
    summary: "RFC 9116 security.txt (/security.txt redirects here)",
    description: root,
    responses: { 200: text("Contact, Expires, Canonical, Preferred-Languages") },
  });
  r.registerPath({
    method: "get",
    path: "/robots.txt",
    tags: ["discovery"],
    summary: "robots.txt with the sitemap and the OADP lines",
    description: root,
    responses: { 200: text("robots.txt") },
  });
  r.registerPath({
    method: "get",
    path: "/skill.md",
    tags: ["discovery"],
    summary:
      "A skill file teaching an LLM agent the mission flow (sign in, find, claim, submit, get paid, verify the receipt, post)",
    description: root,
    responses: { 200: { description: "skill.md (Markdown)", content: { "text/markdown": { schema: z.string() } } } },
  });
  r.registerPath({
    method: "get",
    path: "/llms.txt",
    tags: ["discovery"],
    summary: "What this server is and how an agent uses it",
    description: root,
    responses: { 200: text("llms.txt (Markdown)") },
  });
  for (const method of ["get", "head"] as const) {
    r.registerPath({
      method,
      path: "/specs.zip",
      tags: ["discovery"],
      summary: "Every spec bundle in one zip (AIP-1 §9.2)",
      description: root,
      responses: { 200: zip, 304: notModified },
    });
    r.registerPath({
      method,
      path: "/specs/{name}",
      tags: ["discovery"],
      summary: "One spec bundle, e.g. AIP-1.zip (AIP-1 §9.2)",
      description: root,
      request: {
        params: z.object({ name: z.string().openapi({ param: { name: "name", in: "path" }, example: "AIP-1.zip" }) }),
      },
      responses: { 200: zip, 304: notModified, 404: json("No such bundle: NOT_FOUND with the available names") },
    });
  }
}
