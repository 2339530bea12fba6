import { build } from "../../scripts/build.mjs";

// Global setup of the e2e project: spawned servers and workers run the production build
// (dist/, as `npm start` does; docs/testing.md "Spawned processes run the build"), rebuilt here
// when a source is newer than it. Once, before any worker, so no two files build it at once.

export default async function setup(): Promise<void> {
  const shared = globalThis as { oabpServerBuild?: true };
  if (shared.oabpServerBuild) return;
  shared.oabpServerBuild = true;
  await build(undefined, { ifStale: true });
}
