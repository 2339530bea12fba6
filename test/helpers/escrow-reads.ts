import type { TestApp } from "./app";
import { missionOf, payoutOf } from "./base-rail-mission";
import { escrowTick } from "./escrow-chain";

// What the base-rail tests read between chain steps (docs/base-rail.md): one job tick of the
// settlement worker, a mission as the server stores it, and its payout row.

/** The reads of the app `app()` returns (a getter: the app starts in beforeAll, after this runs). */
export const escrowReads = (app: () => TestApp) => ({
  tick: () => escrowTick(app()),
  mission: (id: string) => missionOf(app(), { id }),
  payoutOf: (missionId: string) => payoutOf(app(), missionId),
});
