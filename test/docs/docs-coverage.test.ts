import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/features/mcp";

// The docs are held to the server: every operation of the OpenAPI document (openapi/openapi.json,
// itself drift-tested against /openapi.json) has a row in docs/api.md, and every MCP tool is named
// in docs/mcp.md. A route or a tool added without its line fails here.

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (f: string) => readFileSync(path.join(ROOT, f), "utf8");
const METHODS = ["get", "post", "put", "patch", "delete", "head"] as const;

/** `/missions/{id}/x` → `/missions/{}/x`; the /api prefix (every route answers there too) dropped. */
const norm = (p: string) =>
  p
    .replace(/\{[^}]*\}/g, "{}")
    .replace(/^\/api(?=\/)/, "")
    .replace(/\/$/, "");

/** The (method, path) pairs a docs/api.md table row names in its first cell. */
export function rowOperations(cell: string): Set<string> {
  const methods = new Set((cell.match(/\b(GET|POST|PUT|PATCH|DELETE|HEAD)\b/g) ?? []).map((m) => m.toLowerCase()));
  const paths: string[] = [];
  // Full paths, and `…/suffix` short forms that replace the last segment of the path before them.
  for (const m of cell.matchAll(/(…)?(\/[A-Za-z0-9_{}.:/-]*)/g)) {
    const prev = paths.at(-1);
    if (m[1] && prev) paths.push(`${prev.slice(0, prev.lastIndexOf("/"))}${m[2]}`);
    else if (!m[1]) paths.push(m[2]!);
  }
  return new Set(paths.flatMap((p) => [...methods].map((method) => `${method} ${norm(p)}`)));
}

/** Operations of the OpenAPI document with no row in the given api.md text. */
function undocumented(apiMd: string): string[] {
  const doc = JSON.parse(read("openapi/openapi.json")) as { paths: Record<string, Record<string, unknown>> };
  const documented = new Set<string>();
  for (const line of apiMd.split("\n")) {
    if (!line.startsWith("| ")) continue;
    for (const op of rowOperations(line.split("|")[1]!)) documented.add(op);
  }
  const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => `${m} ${norm(p)}`),
  );
  expect(operations.length).toBeGreaterThan(100);
  return operations.filter((op) => !documented.has(op));
}

const toolsMissing = (mcpMd: string) => TOOLS.map((t) => t.name).filter((name) => !mcpMd.includes(`\`${name}\``));

describe("docs/api.md", () => {
  it("has a row for every operation of the OpenAPI document", () => {
    const text = read("docs/api.md");
    expect(undocumented(text)).toEqual([]);
    // …and a row taken out is reported.
    const row = text.split("\n").find((l) => l.startsWith("| `GET /treasury`"))!;
    expect(undocumented(text.replace(row, ""))).toEqual(["get /treasury"]);
  });

  it("a row reader that sees a missing operation", () => {
    expect(rowOperations("`GET`, `PUT {addresses} /agents/{id}/blocklist`")).toEqual(
      new Set(["get /agents/{}/blocklist", "put /agents/{}/blocklist"]),
    );
    expect(
      rowOperations("`POST /admin/missions/{id}/hide {reason}`, `…/unhide`").has("post /admin/missions/{}/unhide"),
    ).toBe(true);
    expect(rowOperations("`GET /missions`").has("post /missions")).toBe(false);
  });
});

describe("docs/mcp.md", () => {
  it("names every MCP tool", () => {
    const text = read("docs/mcp.md");
    expect(toolsMissing(text)).toEqual([]);
    expect(toolsMissing(text.replaceAll("`award_mission`", "award"))).toEqual(["award_mission"]);
  });
});
