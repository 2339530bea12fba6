import { afterAll, beforeAll } from "vitest";
import { closeEventStreams } from "../../src/features/events";
import { makeTestApp, type TestApp } from "./app";

/**
 * One app for the calling file or `describe` block (docs/testing.md "Isolation"): built in
 * `beforeAll` by `makeTestApp(env, opts)`, its event streams closed and its database disposed in
 * `afterAll`. The handle reads the app of the running suite, so it is usable in tests and hooks
 * (and in functions they call), never at module load.
 */
export function useTestApp(
  env: Parameters<typeof makeTestApp>[0] = {},
  opts: Parameters<typeof makeTestApp>[1] = {},
): TestApp {
  let built: TestApp | undefined;
  const current = (): TestApp => {
    if (!built) throw new Error("the suite's app exists only inside its tests and hooks");
    return built;
  };
  beforeAll(async () => {
    built = await makeTestApp(env, opts);
  });
  afterAll(async () => {
    if (!built) return;
    closeEventStreams(built.deps);
    await built.close();
  });
  return {
    get app() {
      return current().app;
    },
    get deps() {
      return current().deps;
    },
    get clock() {
      return current().clock;
    },
    get db() {
      return current().db;
    },
    call: (method, path, o) => current().call(method, path, o),
    close: () => current().close(),
  };
}
