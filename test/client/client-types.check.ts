import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLIENT_TYPES_FILE, OPENAPI_FILE, renderClientTypes } from "../../scripts/write-openapi";

// The client's types are generated from openapi/openapi.json (npm run openapi); this fails when
// the committed file was not regenerated after a route change. The root typecheck then compiles
// the client against them, so a change that breaks a client call fails `tsc` too.
describe("client types", () => {
  it("packages/client/src/generated/openapi.ts is what openapi-typescript makes of openapi/openapi.json", async () => {
    const expected = await renderClientTypes(readFileSync(OPENAPI_FILE, "utf8"));
    expect(readFileSync(CLIENT_TYPES_FILE, "utf8") === expected, "run `npm run openapi` and commit the result").toBe(
      true,
    );
  });

  it("covers every path of the OpenAPI document", () => {
    const doc = JSON.parse(readFileSync(OPENAPI_FILE, "utf8")) as { paths: Record<string, unknown> };
    const types = readFileSync(CLIENT_TYPES_FILE, "utf8");
    for (const p of Object.keys(doc.paths)) expect(types).toContain(`${JSON.stringify(p)}: {`);
  });
});
