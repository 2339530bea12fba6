import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNTIME_FILES } from "../../scripts/build.mjs";

// The image (Dockerfile, docs/operations.md "The image"): no Docker engine is needed to check
// the recipe. Its runtime stage installs the lockfile's production packages only and copies
// nothing of the repository but what `npm ci` and `npm start` need, plus the build.

const ROOT = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<
    string,
    {
      dev?: boolean;
      devOptional?: boolean;
      optional?: boolean;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    }
  >;
};

interface Stage {
  name: string;
  lines: string[];
}

/** The Dockerfile's stages, each with its instructions (continuations joined, comments dropped). */
function stages(text: string): Stage[] {
  const out: Stage[] = [];
  const joined = text.replace(/\\\n/g, " ");
  for (const raw of joined.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) out.push({ name: from[1] ?? String(out.length), lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

const all = stages(readFileSync(path.join(ROOT, "Dockerfile"), "utf8"));
const runtime = all.at(-1)!;
const instr = (kind: string) => runtime.lines.filter((l) => l.toUpperCase().startsWith(`${kind} `));

describe("the Dockerfile's runtime stage", () => {
  it("is a separate stage after the build", () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(runtime.name).not.toBe(all[0]!.name);
  });

  it("installs production dependencies only, from the lockfile", () => {
    const installs = instr("RUN").filter((l) => /\bnpm\s+(ci|install|i)\b/.test(l));
    expect(installs.length).toBe(1);
    for (const l of installs) {
      expect(l).toMatch(/\bnpm\s+ci\b/); // the lockfile, nothing resolved anew
      expect(l).toMatch(/--omit=dev\b/);
      expect(l).toMatch(/--omit=optional\b/); // the devOptional ones (typescript, @types)
      expect(l).not.toMatch(/--include=dev|--production=false/);
    }
    for (const l of instr("RUN"))
      expect(l, "no other package manager or package").not.toMatch(/\bnpx\b|\byarn\b|\bpnpm\b/);
    expect(runtime.lines.some((l) => /NODE_ENV=production/.test(l))).toBe(true);
  });

  it("copies the build from the build stage and nothing else of the repository but the install's inputs", () => {
    const copies = instr("COPY").map((l) => l.replace(/^COPY\s+/i, "").split(/\s+/));
    const fromBuild = copies.filter((c) => c[0]!.startsWith("--from="));
    expect(fromBuild.map((c) => c.slice(1, -1))).toEqual([["/app/dist"]]);
    const fromContext = copies.filter((c) => !c[0]!.startsWith("--")).flatMap((c) => c.slice(0, -1));
    expect(new Set(fromContext)).toEqual(
      new Set([
        "package.json",
        "package-lock.json",
        "patches",
        "scripts/start.mjs",
        "scripts/build.mjs",
        "scripts/prepare.mjs",
      ]),
    );
  });

  it("runs the compiled server with source maps, as a non-root user", () => {
    const user = instr("USER").at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/\b(root|0)\b/);
    const cmd = instr("CMD").at(-1)!;
    expect(cmd).toContain("--enable-source-maps");
    expect(cmd).toContain("scripts/start.mjs");
    expect(cmd).not.toMatch(/tsx|\.ts"/);
  });

  it("runs install scripts that need only production packages", () => {
    // npm ci --omit=dev runs postinstall and prepare: their commands must be installed then.
    expect(pkg.scripts.postinstall).toBe("patch-package");
    expect(Object.keys(pkg.dependencies)).toContain("patch-package");
    expect(pkg.scripts.prepare).toBe("node scripts/prepare.mjs");
  });
});

describe("the lockfile against package.json", () => {
  // What `npm ci --omit=dev --omit=optional` installs: devOptional marks a package that is a dev
  // dependency here and an optional peer of a production one (typescript for viem).
  const production = Object.entries(lock.packages).filter(
    ([k, v]) => k.startsWith("node_modules/") && !v.dev && !v.devOptional && !v.optional,
  );
  const name = (k: string) => k.slice(k.lastIndexOf("node_modules/") + "node_modules/".length);
  const prodNames = new Set(production.map(([k]) => name(k)));

  it("is in step with package.json", () => {
    expect(lock.packages[""]?.dependencies).toEqual(pkg.dependencies);
    expect(lock.packages[""]?.devDependencies).toEqual(pkg.devDependencies);
  });

  it("installs no build, test or contract tool in production", () => {
    for (const tool of [
      "tsx",
      "esbuild",
      "typescript",
      "vitest",
      "drizzle-kit",
      "solc",
      "@openzeppelin/contracts",
      "@foundry-rs/anvil",
      "lighthouse",
      "playwright-core",
      "eslint",
      "@types/node",
    ])
      expect(prodNames.has(tool), tool).toBe(false);
  });

  it("installs a development dependency only where a production package needs it itself", () => {
    const needed = new Set(production.flatMap(([, v]) => Object.keys(v.dependencies ?? {})));
    const stray = Object.keys(pkg.devDependencies).filter((d) => prodNames.has(d) && !needed.has(d));
    expect(stray).toEqual([]);
  });
});

describe("the build it copies", () => {
  it("holds every file the server reads at run time (scripts/build.mjs)", () => {
    // Each is copied into dist/ by the build: the runtime stage needs none of them on its own.
    expect(RUNTIME_FILES).toEqual(expect.arrayContaining(["drizzle", "specs", "src/lib/match-worker.mjs"]));
  });
});
