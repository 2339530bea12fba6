import { defineConfig } from "vitest/config";

// The repository's rules that load a heavy tool — ESLint on planted files, solc against the
// committed artifacts — kept out of `npm test`'s unit tier and run once in CI's lint step
// (`npm run checks`, .ci/run; docs/testing.md "Tiers").
export default defineConfig({
  test: {
    name: "checks",
    include: ["test/**/*.check.ts"],
    testTimeout: 120_000,
    hookTimeout: 150_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
