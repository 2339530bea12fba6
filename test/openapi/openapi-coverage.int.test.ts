import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/suite-app";

// Every receipt and discovery surface is in /openapi.json — the zod routes
// and the plain ones (fixed-bytes documents, feeds, zips) alike — and each documented path answers.
const t = useTestApp();

const DISCOVERY = [
  ["get", "/missions/{id}/receipts/{submission_id}"],
  ["post", "/receipts/verify"],
  ["get", "/.well-known/oabp.json"],
  ["get", "/.well-known/agent-bounty.json"],
  ["get", "/.well-known/oauth-protected-resource"],
  ["get", "/.well-known/agent-protocol.json"],
  ["get", "/.well-known/security.txt"],
  ["get", "/robots.txt"],
  ["get", "/llms.txt"],
  ["get", "/feed.xml"],
  ["get", "/missions.rss"],
  ["get", "/feed.atom"],
  ["get", "/sitemap.xml"],
  ["get", "/sitemaps/{file}"],
  ["post", "/webhooks"],
  ["get", "/webhooks/{id}/deliveries"],
  ["get", "/.well-known/agent.json"],
  ["get", "/.well-known/agent-card.json"],
  ["get", "/agent-card.json"],
  ["post", "/mcp"],
  ["get", "/mcp"],
  ["delete", "/mcp"],
  ["get", "/specs.zip"],
  ["head", "/specs.zip"],
  ["get", "/specs/{name}"],
  ["head", "/specs/{name}"],
] as const;

describe("/openapi.json covers the discovery surfaces", () => {
  it("lists each route with its method", async () => {
    const doc = (await t.call("GET", "/openapi.json")).body;
    for (const [method, path] of DISCOVERY) expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
  });

  it("each documented fixed path answers (no phantom entries)", async () => {
    for (const [method, path] of DISCOVERY) {
      if (method !== "get" || path.includes("{")) continue;
      const r = await t.call("GET", path);
      expect(r.status, path).toBe(200);
    }
  });
});
