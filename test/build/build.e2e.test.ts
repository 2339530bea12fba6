import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startServer, type ServerProcess } from "../helpers/process";

// The production build (scripts/build.mjs, docs/operations.md "Build and start"): `npm start`
// runs dist/main.js, compiled JavaScript, and finds every file the sources read relative to
// themselves (migrations, the web page script, Swagger UI, specs, the packed client).

const DIST = path.join(ROOT, "dist");
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: ROOT, stdio: "inherit" });
  dataDir = mkdtempSync(path.join(tmpdir(), "oabp-built-"));
  // The embedded database: migrations are read from dist/drizzle.
  server = await startServer({ OABP_DATA_DIR: dataDir, DATABASE_URL: "" }, { built: true });
});

afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the built server", () => {
  it("is healthy after running the migrations it ships", async () => {
    const res = await fetch(`${server.base}/health`);
    expect(res.status).toBe(200);
    const missions = await fetch(`${server.base}/missions`);
    expect(missions.status).toBe(200);
  });

  it("serves the page script bundled at build time, and Swagger UI", async () => {
    const page = await (await fetch(`${server.base}/`)).text();
    const script = /src="(\/assets\/js\/app-[A-Z0-9]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(`${server.base}${script}`);
    expect(js.status).toBe(200);
    // The very file the build wrote: the server did not bundle its own.
    const built = readdirSync(path.join(DIST, "src/features/web/client-built"));
    expect(built).toContain(path.basename(script!));
    const docs = await (await fetch(`${server.base}/docs`)).text();
    const swagger = /\/assets\/swagger-[^"]+\/swagger-ui-bundle\.js/.exec(docs)?.[0];
    expect(swagger).toBeDefined();
    expect((await fetch(`${server.base}${swagger}`)).status).toBe(200);
  });

  it("serves the spec bundles and the packed client", async () => {
    const zip = await fetch(`${server.base}/specs/AIP-1.zip`);
    expect(zip.status).toBe(200);
    expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    if (existsSync(path.join(ROOT, "packages/client/pack")))
      expect((await fetch(`${server.base}/client.tgz`)).status).toBe(200);
  });
});

describe("the build's files", () => {
  it("maps every compiled file back to sources that exist", () => {
    const maps = readdirSync(DIST).filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(4);
    const main = JSON.parse(readFileSync(path.join(DIST, "main.js.map"), "utf8")) as { sources: string[] };
    expect(main.sources).toContain("../src/main.ts");
    for (const m of maps) {
      const { sources } = JSON.parse(readFileSync(path.join(DIST, m), "utf8")) as { sources: string[] };
      for (const s of sources) expect(existsSync(path.resolve(DIST, s)), `${m}: ${s}`).toBe(true);
    }
  });

  it("holds no import.meta.url that would resolve outside dist/", () => {
    for (const f of readdirSync(DIST).filter((x) => x.endsWith(".js"))) {
      const text = readFileSync(path.join(DIST, f), "utf8");
      for (const m of text.matchAll(/new URL\("\.\/([^"]+)", import\.meta\.url\)/g))
        expect(m[1]!.startsWith("src/") || m[1]!.startsWith("scripts/"), `${f}: ${m[1]}`).toBe(true);
      // Every bare import.meta.url is inside one of those rewrites.
      const bare = text.replaceAll(/new URL\("\.\/[^"]+", import\.meta\.url\)/g, "").match(/import\.meta\.url/g);
      expect(bare, f).toBeNull();
    }
  });

  it("imports only runtime dependencies, and every runtime dependency is used", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const used = new Set<string>();
    for (const f of readdirSync(DIST).filter((x) => x.endsWith(".js"))) {
      const text = readFileSync(path.join(DIST, f), "utf8");
      const specs = [
        ...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*"([^".][^"]*)";/gm),
        ...text.matchAll(/\bimport\("([^".][^"]*)"\)/g),
      ];
      for (const m of specs) {
        const spec = m[1]!;
        if (spec.startsWith("node:")) continue;
        used.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
      }
    }
    // esbuild: the page script's fallback when no prebuilt one exists, never taken by the build.
    used.delete("esbuild");
    for (const dep of used) expect(pkg.dependencies, dep).toHaveProperty([dep]);
    // Used otherwise than by import: Swagger UI's files (require.resolve), the install's patcher.
    const unused = Object.keys(pkg.dependencies).filter((d) => !used.has(d));
    expect(unused.sort()).toEqual(["patch-package", "swagger-ui-dist"]);
  });
});
