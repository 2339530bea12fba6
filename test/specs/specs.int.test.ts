import { mkdtempSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DECISIONS_FILE, buildSpecBundles } from "../../src/features/specs/specs.bundles";
import { registerSpecs } from "../../src/features/specs/specs.index";
import type { AppEnv } from "../../src/http/types";
import { buildApi, openApiDocument } from "../../src/openapi";
import { PUBLIC_URL } from "../helpers/app";
import { useTestApp } from "../helpers/suite-app";

// AIP-1 §9.2 downloadable spec bundles: /specs/AIP-{N}.zip and /specs.zip.

const t = useTestApp();

const req = (p: string, init?: RequestInit) => t.app.request(p, init);
const files = async (res: Response) => unzipSync(new Uint8Array(await res.arrayBuffer()));

describe("spec bundles (§9.2)", () => {
  it.each([
    ["/specs/AIP-1.zip", "AIP-1.zip"],
    ["/specs.zip", "specs.zip"],
  ])("GET %s is a zip download with Content-Length, ETag and Last-Modified", async (p, name) => {
    const res = await req(p);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
    expect(res.headers.get("etag")).toMatch(/^"sha256-[0-9a-f]{64}"$/);
    expect(Date.parse(res.headers.get("last-modified")!)).not.toBeNaN();
    const body = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(body.byteLength);
    expect([...body.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });

  it.each(["/specs/AIP-1.zip", "/specs.zip"])("HEAD %s: same headers and Content-Length as GET, no body", async (p) => {
    const get = await req(p);
    const getLength = (await get.arrayBuffer()).byteLength;
    const head = await req(p, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/zip");
    expect(head.headers.get("content-length")).toBe(String(getLength));
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("last-modified")).toBe(get.headers.get("last-modified"));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("AIP-1.zip holds the profile, the decisions and openapi-aip-1.yaml listing /missions", async () => {
    const zip = await files(await req("/specs/AIP-1.zip"));
    expect(Object.keys(zip)).toEqual(expect.arrayContaining(["profile.md", "decisions.md", "openapi-aip-1.yaml"]));
    const doc = parse(new TextDecoder().decode(zip["openapi-aip-1.yaml"]));
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/missions"]).toBeDefined();
    expect(doc.servers).toEqual([expect.objectContaining({ url: PUBLIC_URL })]);
    // The same document as /openapi.json.
    expect(doc).toEqual(await (await req("/openapi.json")).json());
    const decisions = new TextDecoder().decode(zip["decisions.md"]);
    expect(decisions).toContain("## Protocol decisions");
    expect(decisions).toContain("Anonymous writes (§1.4)");
    expect(new TextDecoder().decode(zip["profile.md"])).toContain("AIP-1");
  });

  it("specs.zip holds every file under its folder", async () => {
    const names = Object.keys(await files(await req("/specs.zip")));
    expect(names).toEqual(expect.arrayContaining(["README.md", "AIP-1/profile.md", "AIP-1/decisions.md", "AIP-1/openapi-aip-1.yaml"]));
    expect(names).toEqual([...names].sort());
  });

  it("If-None-Match with the ETag → 304 without a body; a stale ETag → 200", async () => {
    const etag = (await req("/specs/AIP-1.zip")).headers.get("etag")!;
    const res = await req("/specs/AIP-1.zip", { headers: { "if-none-match": `"other", ${etag}` } });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(etag);
    expect(await res.text()).toBe("");
    expect((await req("/specs/AIP-1.zip", { headers: { "if-none-match": '"sha256-00"' } })).status).toBe(200);
  });

  it.each(["/specs/AIP-999.zip", "/specs/AIP-1.tar", "/specs/../package.json"])("unknown bundle %s → JSON 404", async (p) => {
    const res = await req(p);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { error: string; request_id: unknown };
    expect(body.error).toBe("NOT_FOUND");
    expect(typeof body.request_id).toBe("string");
  });

  it("two builds from the same inputs are byte-identical (fixed entry times)", () => {
    const api = buildApi();
    const openapi = () => openApiDocument(api, PUBLIC_URL);
    const a = buildSpecBundles({ openapi });
    const b = buildSpecBundles({ openapi });
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [name, bundle] of a) {
      expect(Buffer.from(bundle.bytes).equals(Buffer.from(b.get(name)!.bytes))).toBe(true);
      expect(bundle.etag).toBe(b.get(name)!.etag);
    }
  });

  it("an operator's AIP folders become bundles; Last-Modified is the newest input; hidden files are skipped", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oabp-specs-"));
    try {
      mkdirSync(path.join(dir, "AIP-1"));
      mkdirSync(path.join(dir, "AIP-2"));
      writeFileSync(path.join(dir, "AIP-1", "AIP-1.md"), "# AIP-1\n");
      writeFileSync(path.join(dir, "AIP-1", "AIP-1.fr.md"), "# AIP-1 (fr)\n");
      writeFileSync(path.join(dir, "AIP-2", "AIP-2.md"), "# AIP-2\n");
      writeFileSync(path.join(dir, "AIP-2", ".DS_Store"), "x");
      const newest = new Date("2026-05-21T02:20:00Z");
      utimesSync(path.join(dir, "AIP-2", "AIP-2.md"), newest, newest);
      for (const f of ["AIP-1/AIP-1.md", "AIP-1/AIP-1.fr.md"]) utimesSync(path.join(dir, f), new Date("2026-05-01T00:00:00Z"), new Date("2026-05-01T00:00:00Z"));
      const sources = { specsDir: dir, decisionsFile: path.join(dir, "missing-decisions.md"), openapiFile: path.join(dir, "missing.json") };
      const app = new Hono<AppEnv>();
      const bundles = registerSpecs(app, { deps: t.deps, openapi: () => ({ openapi: "3.1.0", paths: { "/missions": {} } }), ...sources })();
      expect([...bundles.keys()]).toEqual(["AIP-1.zip", "AIP-2.zip", "specs.zip"]);
      expect(bundles.get("AIP-1.zip")!.entries).toEqual(["AIP-1.fr.md", "AIP-1.md", "openapi-aip-1.yaml"]);
      expect(bundles.get("AIP-2.zip")!.entries).toEqual(["AIP-2.md"]);
      expect(bundles.get("specs.zip")!.entries).toEqual(["AIP-1/AIP-1.fr.md", "AIP-1/AIP-1.md", "AIP-1/openapi-aip-1.yaml", "AIP-2/AIP-2.md"]);
      const res = await app.request("/specs/AIP-2.zip");
      expect(res.status).toBe(200);
      expect(res.headers.get("last-modified")).toBe(newest.toUTCString());
      expect(new TextDecoder().decode(unzipSync(new Uint8Array(await res.arrayBuffer()))["AIP-2.md"])).toBe("# AIP-2\n");
      // If-Modified-Since at the Last-Modified → 304.
      expect((await app.request("/specs/AIP-2.zip", { headers: { "if-modified-since": newest.toUTCString() } })).status).toBe(304);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // — AIP-1 §9.2: "a deflate-compressed archive containing the canonical AIP-{N}.md
  // plus all published translations … and any auxiliary files explicitly attached to that AIP".
  it.each([1, 2, 3, 4])("/specs/AIP-%i.zip holds the canonical CC0 text byte for byte, and specs.zip holds it too", async (n) => {
    const canonical = readFileSync(path.resolve(__dirname, "../..", "specs", `AIP-${n}`, `AIP-${n}.md`));
    expect(canonical.toString("utf8")).toMatch(new RegExp(`^# AIP-${n}:`));
    expect(canonical.toString("utf8")).toMatch(/CC0/);
    const zip = await files(await req(`/specs/AIP-${n}.zip`));
    expect(Buffer.from(zip[`AIP-${n}.md`]!).equals(canonical)).toBe(true);
    const all = await files(await req("/specs.zip"));
    expect(Buffer.from(all[`AIP-${n}/AIP-${n}.md`]!).equals(canonical)).toBe(true);
  });

  it("§9.2 \"SHOULD be regenerated whenever a spec file changes\": a changed or added file is served without a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "oabp-specs-"));
    try {
      mkdirSync(path.join(dir, "AIP-2"));
      writeFileSync(path.join(dir, "AIP-2", "AIP-2.md"), "# AIP-2 v1\n");
      const sources = { specsDir: dir, decisionsFile: path.join(dir, "missing-decisions.md"), openapiFile: path.join(dir, "missing.json") };
      const app = new Hono<AppEnv>();
      registerSpecs(app, { deps: t.deps, openapi: () => ({ openapi: "3.1.0", paths: {} }), ...sources });
      const first = await app.request("/specs/AIP-2.zip");
      const etag1 = first.headers.get("etag");
      expect(new TextDecoder().decode(unzipSync(new Uint8Array(await first.arrayBuffer()))["AIP-2.md"])).toBe("# AIP-2 v1\n");
      writeFileSync(path.join(dir, "AIP-2", "AIP-2.md"), "# AIP-2 v2, longer\n");
      writeFileSync(path.join(dir, "AIP-2", "AIP-2.fr.md"), "# AIP-2 (fr)\n");
      mkdirSync(path.join(dir, "AIP-5"));
      writeFileSync(path.join(dir, "AIP-5", "AIP-5.md"), "# AIP-5\n");
      t.clock.advance(5_000); // past the re-check interval
      const second = await app.request("/specs/AIP-2.zip");
      expect(second.headers.get("etag")).not.toBe(etag1);
      const zip = unzipSync(new Uint8Array(await second.arrayBuffer()));
      expect(new TextDecoder().decode(zip["AIP-2.md"])).toBe("# AIP-2 v2, longer\n");
      expect(Object.keys(zip)).toContain("AIP-2.fr.md");
      expect((await app.request("/specs/AIP-5.zip")).status).toBe(200);
      // Unchanged inputs: the same bytes and ETag again.
      t.clock.advance(5_000);
      expect((await app.request("/specs/AIP-2.zip")).headers.get("etag")).toBe(second.headers.get("etag"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("AIP-1/decisions.md is docs/decisions.md byte for byte (nothing reads the README at run time)", async () => {
    const zip = await files(await req("/specs/AIP-1.zip"));
    expect(Buffer.from(zip["decisions.md"]!).equals(readFileSync(DECISIONS_FILE))).toBe(true);
    expect(DECISIONS_FILE).toBe(path.resolve(__dirname, "..", "..", "docs", "decisions.md"));
  });
});
