import { amendmentsJobs } from "../features/amendments";
import { claimsJobs } from "../features/claims";
import { disputesJobs } from "../features/disputes";
import { erc8004Jobs } from "../features/erc8004";
import { escrowJobs } from "../features/escrow";
import { mcpJobs } from "../features/mcp";
import { oadpJobs } from "../features/oadp";
import { paymentsJobs } from "../features/payments";
import { reputationJobs } from "../features/reputation";
import { withdrawalJobs } from "../features/withdrawals";
import { runPendingChecks } from "./checks";
import type { Job } from "./job";
import { purgeExpiredAuth } from "./purge";
import { sweepDueMissions } from "./sweeper";
import { purgeWebhookHistory, runWebhookJobs } from "./webhooks";

/**
 * Every background job, in the order the main loop runs them. All read their work from committed
 * state, so a restart picks up where the last run left off, and all are safe on several servers at
 * once (SKIP LOCKED / conditional claims / leases).
 */
export const JOBS: readonly Job[] = [
  {
    name: "sweep_due_missions",
    loop: "tick",
    // Drain a backlog in bounded rounds (50 missions each), then let the next tick continue.
    run: async (deps, round) => {
      for (let i = 0; i < 20 && !round.stopped(); i++) if ((await sweepDueMissions(deps)) === 0) break;
    },
  },
  ...escrowJobs,
  ...withdrawalJobs,
  ...paymentsJobs,
  ...erc8004Jobs,
  ...amendmentsJobs,
  { name: "purge_expired_auth", loop: "tick", run: (deps) => purgeExpiredAuth(deps) },
  ...mcpJobs,
  ...reputationJobs,
  { name: "webhook_deliveries", loop: "tick", run: (deps) => runWebhookJobs(deps) },
  { name: "purge_webhook_history", loop: "tick", run: (deps) => purgeWebhookHistory(deps) },
  ...claimsJobs,
  ...oadpJobs,
  ...disputesJobs,
  // Remote verification checks (content fetches, predicate calls) with several workers (checks.ts).
  { name: "verification_checks", loop: "checks", run: (deps) => runPendingChecks(deps) },
];
