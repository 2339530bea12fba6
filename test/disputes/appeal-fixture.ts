import { treasuryBalances } from "../../src/features/ledger/ledger.service";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import type { TestApp } from "../helpers/app";
import { credit, openMission, signIn } from "../helpers/agents";
import { balanceOf, submitAs } from "../helpers/judging";

// What the appeal suites (appeal*.int.test.ts) set up: a creator_judges mission with an appeal
// (AIP-1 Security Considerations, reward griefing), its submitters and stakers, and the reads
// their assertions compare.

export const DAY = 86_400_000;
export const REWARD = 100_000_000n;
export const NET = REWARD - 500_000n; // 0.5 % fee
export const APPEAL = { appeal_window_seconds: 86_400, vote_token: "USDC", min_vote: "100", quorum: "1000" };

type Agent = Awaited<ReturnType<typeof signIn>>;

export function appealFixture(t: TestApp) {
  /** Sessions last 24 h: sign an agent in again after the clock moved. */
  const again = async (a: Agent): Promise<Agent> => signIn(t, a.account);
  return {
    balance: (address: string) => balanceOf(t, address),
    treasury: async () => (await treasuryBalances(t.deps.database.db)).get("USDC") ?? 0n,
    mission: async (id: string) => (await t.call("GET", `/missions/${id}`)).body,
    subsOf: async (id: string) =>
      (await t.call("GET", `/missions/${id}/submissions`)).body.submissions as {
        id: string;
        status: string;
        reason: string;
        content_uri: string | null;
        next_action: string;
      }[],
    votesOf: async (id: string) =>
      (await t.call("GET", `/missions/${id}/votes`)).body.votes as {
        voter: string;
        outcome: string | null;
        payout: string | null;
      }[],
    again,
    /** An open creator_judges mission with the appeal (and `params`), and `n` accepted submissions. */
    async appealMission(params: Record<string, unknown> = {}, n = 3) {
      const { creator, mission } = await openMission(t, {
        verification: { type: "creator_judges", params: { appeal: APPEAL, ...params } },
      });
      const subs: (Agent & { sub: { id: string } })[] = [];
      for (let i = 0; i < n; i++) {
        const a = await signIn(t);
        subs.push({ ...a, sub: { id: await submitAs(t, mission.id, a, `answer ${i} from ${a.address}`) } });
      }
      return { creator, mission, subs };
    },
    /** A signed-in agent credited with `amount`. */
    async staker(amount: bigint): Promise<Agent> {
      const v = await signIn(t);
      await credit(t, v.address, amount);
      return v;
    },
    stake: (missionId: string, who: { token: string }, submissionId: string, amount: string) =>
      t.call("POST", `/missions/${missionId}/votes`, {
        token: who.token,
        body: { submission_id: submissionId, amount },
      }),
    /** Moves the clock to `at` and runs the sweeper. */
    async sweepAt(at: Date | string) {
      t.clock.set(new Date(at));
      return sweepDueMissions(t.deps);
    },
  };
}
