import { defineConfig } from "vitest/config";

// Three tiers, selected by file suffix (docs/testing.md):
//   unit         test/**/*.test.ts       pure: no database, no process, no network
//   integration  test/**/*.int.test.ts   app.request / in-process HTTP against a cloned database
//   e2e          test/**/*.e2e.test.ts   spawned servers, anvil, chromium, pgbouncer
// `npm test` runs all three; `npm test -- --project unit` runs one.
const TEMPLATE_DB = ["test/setup/template-db.ts"];
// e2e servers serve the packed client (/client.tgz) and run the build (dist/): each rebuilt first
// when its sources changed.
const E2E_SETUP = [...TEMPLATE_DB, "test/setup/client-pack.ts", "test/setup/server-build.ts"];
// Every tier shares its worker's module graph (isolate: false): importing the app (hono, zod-openapi,
// viem, drizzle) once per worker instead of once per file halves the suite's CPU time. Safe because
// per-app state is keyed by the app's Deps or Db (WeakMaps) and every file builds its own app,
// database, anvil and processes (file-level `let`s are re-created with each test file).

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 150_000,
    pool: "forks",
    // 2-core machines: two files at a time keeps PGlite start-up and Postgres pools civil.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/**/*.int.test.ts", "test/**/*.e2e.test.ts"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.int.test.ts"],
          globalSetup: TEMPLATE_DB,
          // Every refusal's reason must be one its route declares (docs/api.md "Errors").
          setupFiles: ["test/setup/reasons-declared.ts"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["test/**/*.e2e.test.ts"], globalSetup: E2E_SETUP, isolate: false },
      },
    ],
  },
});
