import { afterEach, expect } from "vitest";
import { reasonCheck } from "../../src/http/errors";

// Each integration test fails when a route answered a `details.reason` it does not declare for its
// code (docs/api.md "Errors"): the route's `errors` entries, or EVERY_ROUTE in src/http/openapi.ts.
reasonCheck.on = true;
afterEach(() => {
  const found = reasonCheck.found.splice(0);
  expect(found, "refusal reasons the route does not declare in its errors").toEqual([]);
});
