import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 150_000,
    pool: "forks",
    // 2-core machines: two files at a time keeps PGlite start-up and Postgres pools civil.
    maxWorkers: 2,
  },
});
