import { afterAll, beforeAll } from "vitest";
import { startReceiver, type Receiver, type Rule } from "./receiver";

/**
 * A webhook receiver (`startReceiver(rules)`) for the calling file or `describe` block: started in
 * `beforeAll`, closed in `afterAll`. The handle reads the running one, so it is usable in tests and
 * hooks, never at module load.
 */
export function useReceiver(rules: Record<string, Rule> = {}): Receiver {
  let rx: Receiver | undefined;
  const current = (): Receiver => {
    if (!rx) throw new Error("the suite's receiver runs only inside its tests and hooks");
    return rx;
  };
  beforeAll(async () => {
    rx = await startReceiver(rules);
  });
  afterAll(async () => {
    await rx?.close();
  });
  return {
    get base() {
      return current().base;
    },
    get received() {
      return current().received;
    },
    get verifications() {
      return current().verifications;
    },
    at: (path) => current().at(path),
    on: (path, rule) => current().on(path, rule),
    refuseVerification: (path) => current().refuseVerification(path),
    close: () => current().close(),
  };
}
