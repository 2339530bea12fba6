import { execFileSync } from "node:child_process";
import { builtinModules } from "node:module";
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
  server = await startServer({ OABP_DATA_DIR: dataDir, DATABASE_URL: "" });
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

  it("answers zod's refusals in English, the one locale the build bundles", async () => {
    const res = await fetch(`${server.base}/missions?limit=0`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe("limit: Too small: expected number to be >=1");
    const locales = new Set<string>();
    for (const f of readdirSync(DIST).filter((x) => x.endsWith(".js")))
      for (const m of readFileSync(path.join(DIST, f), "utf8").matchAll(
        /^\/\/ node_modules\/zod\/v4\/locales\/([\w-]+)/gm,
      ))
        locales.add(m[1]!);
    expect([...locales]).toEqual(["en"]);
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
      // Bundled packages' maps point on into their own sources, which npm does not always ship.
      for (const s of sources.filter((x) => !x.includes("node_modules/")))
        expect(existsSync(path.resolve(DIST, s)), `${m}: ${s}`).toBe(true);
    }
  });

  it("holds no import.meta.url that would resolve outside dist/", () => {
    for (const f of readdirSync(DIST).filter((x) => x.endsWith(".js"))) {
      // The first line is the build's banner (a require for the bundled CommonJS packages).
      const text = readFileSync(path.join(DIST, f), "utf8").split("\n").slice(1).join("\n");
      for (const m of text.matchAll(/new URL\("\.\/([^"]+)", import\.meta\.url\)/g))
        expect(m[1]!.startsWith("src/") || m[1]!.startsWith("scripts/"), `${f}: ${m[1]}`).toBe(true);
      // Every bare import.meta.url is inside one of those rewrites.
      const bare = text.replaceAll(/new URL\("\.\/[^"]+", import\.meta\.url\)/g, "").match(/import\.meta\.url/g);
      expect(bare, f).toBeNull();
    }
  });

  it("imports only runtime dependencies, and every runtime dependency is imported or bundled", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const pkgName = (spec: string) =>
      spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
    const imported = new Set<string>();
    for (const f of readdirSync(DIST).filter((x) => x.endsWith(".js"))) {
      const text = readFileSync(path.join(DIST, f), "utf8");
      const specs = [
        ...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*"([^".][^"]*)";/gm),
        ...text.matchAll(/\bimport\("([^".][^"]*)"\)/g),
      ];
      for (const m of specs)
        if (!m[1]!.startsWith("node:") && !builtinModules.includes(m[1]!)) imported.add(pkgName(m[1]!));
    }
    const stamp = JSON.parse(readFileSync(path.join(DIST, "BUILD.json"), "utf8")) as { bundled: string[] };
    const bundled = new Set(stamp.bundled);
    // esbuild: the page script's fallback when no prebuilt one exists, never taken by the build.
    imported.delete("esbuild");
    for (const dep of imported) expect(pkg.dependencies, dep).toHaveProperty([dep]);
    // Installed, not imported: Swagger UI's files (require.resolve) and the install's patcher.
    const unused = Object.keys(pkg.dependencies).filter((d) => !imported.has(d) && !bundled.has(d));
    expect(unused.sort()).toEqual(["patch-package", "swagger-ui-dist"]);
    // postgres.js is bundled as installed: patched (test/db/postgres-patch.test.ts checks the copy).
    expect(bundled.has("postgres")).toBe(true);
  });
});
