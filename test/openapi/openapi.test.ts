import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPENAPI_FILE, renderOpenApi } from "../../scripts/write-openapi";

describe("openapi/openapi.json", () => {
  it("matches the document generated from the route schemas (run `npm run openapi` after changing a route)", () => {
    expect(readFileSync(OPENAPI_FILE, "utf8")).toBe(renderOpenApi());
  });

  it("is OpenAPI 3.1 and documents the core routes with their error responses", () => {
    const doc = JSON.parse(renderOpenApi());
    expect(doc.openapi).toBe("3.1.0");
    for (const p of ["/missions", "/missions/{id}", "/missions/{id}/submissions", "/agents/{id}", "/agents/{id}/balance", "/auth/siwe", "/attestations/registry"]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    // Per code with reasons, the Error body narrowed to the route's reasons (docs/api.md "Errors").
    const conflict = doc.paths["/missions"].post.responses["409"].content["application/json"].schema;
    expect(JSON.stringify(conflict)).toContain('"$ref":"#/components/schemas/Error"');
    expect(JSON.stringify(conflict)).toContain('"idempotency_in_flight"');
    expect(doc.paths["/missions/{id}/submissions"].post.responses["403"]).toBeDefined();
  });
});
