import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/features/mcp";
import { operationOf } from "../../src/http/operation";
import { buildApi } from "../../src/openapi";

// One operation per endpoint (docs/architecture.md "Add an endpoint"): every MCP tool is derived
// from an operation and its REST twin's handler from the same one, so a tool cannot call the verb
// differently from its route; every write under /missions is an operation that drops the cached
// mission lists (no path rule in app.ts does it for them).

/** Tools with no REST twin to derive from: sign-in binds the MCP session, deposit carries x402 in `_meta`. */
const TOOL_ONLY = new Set(["auth_nonce", "sign_in", "deposit"]);
/** Writes under /missions that change nothing a list shows. */
const LISTS_UNCHANGED = new Set(["POST /missions/{id}/award/typed-data"]);

const api = buildApi();
const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");
/** The operation each mounted method and path is answered by (the last handler of its chain). */
function mounted(method: string, path: string) {
  const hits = api.routes.filter((r) => r.method === method.toUpperCase() && r.path === honoPath(path));
  return hits.map((r) => operationOf(r.handler)).find((op) => op !== undefined);
}

describe("operations", () => {
  it.each(TOOLS.map((t) => [t.name, t] as const))("%s is derived from an operation, or has no REST twin", (name, t) => {
    if (TOOL_ONLY.has(name)) return expect(t.operation, `${name} is listed as tool-only`).toBeUndefined();
    expect(t.operation, `${name}: build it with opTool(operation, …)`).toBeDefined();
  });

  it.each(TOOLS.filter((t) => t.operation).map((t) => [t.name, t] as const))(
    "%s: its REST route's handler is derived from the same operation",
    (_name, t) => {
      const { method, path } = t.operation!.route;
      expect(mounted(method, path), `${method.toUpperCase()} ${path} is mounted with handle(operation)`).toBe(
        t.operation,
      );
    },
  );

  const missionWrites = api.routes
    .filter((r) => r.method !== "GET" && r.method !== "ALL" && /^\/missions(\/|$)/.test(r.path))
    .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
  it.each([...new Set(missionWrites)])("%s is an operation that drops the cached lists", (key) => {
    const [method, path] = key.split(" ") as [string, string];
    const op = mounted(method, path);
    expect(op, `${key} is mounted with handle(operation)`).toBeDefined();
    if (!LISTS_UNCHANGED.has(key)) expect(op!.lists, `${key} declares lists: true`).toBe(true);
  });

  it("covers every tool and the writes under /missions", () => {
    expect(TOOLS.filter((t) => t.operation).length).toBe(TOOLS.length - TOOL_ONLY.size);
    expect(new Set(missionWrites).size).toBeGreaterThanOrEqual(17);
  });
});
