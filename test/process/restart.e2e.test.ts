import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { afterJobRounds, E2E_ADMIN, startServer, httpCall, httpSignIn } from "../helpers/process";
import { freshDatabase, httpCredit, killProcess as kill, tempDir, useCleanups } from "../helpers/process-suite";

// The job runner survives a crash. Missions are created on a real server
// process, which is SIGKILLed before their deadlines; the deadlines pass while no server runs.
// Two new servers are then started on the same database at once: their job loops must void or
// advance every mission, each exactly once (refunds counted on the creator's balance and on the
// ledger's entry count, which would both show a second refund).
describe.runIf(onRealPostgres)("restart on real Postgres", () => {
  const cleanups = useCleanups();

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const call = httpCall;
  const signIn = httpSignIn;
  /** Polls `cond` every `everyMs` until it holds; throws `what` after `limitMs` (a generous bound, not a budget). */
  const until = async (
    cond: () => Promise<boolean> | boolean,
    what: () => Promise<string> | string,
    limitMs = 30_000,
    everyMs = 50,
  ) => {
    for (const end = Date.now() + limitMs; !(await cond()); await sleep(everyMs)) {
      if (Date.now() > end) throw new Error(await what());
    }
  };

  it("SIGKILL before the deadlines; after them, two restarted servers void or advance each mission exactly once", async () => {
    const db = await freshDatabase(cleanups, "oabp_restart");
    const env = (interval = "200") => {
      const dir = tempDir(cleanups, "oabp-restart");
      return { DATABASE_URL: db.url, OABP_DATA_DIR: dir, OABP_JOB_INTERVAL_MS: interval, OABP_APPEAL_DEFAULT: "off" }; // awards pay at once here
    };

    // The first server runs no job loop ("0"), so it cannot act on the deadlines however long the
    // setup takes on a loaded machine: every transition is left to the restarted servers.
    const first = await startServer(env("0"));
    cleanups.push(() => kill(first));
    const creator = await signIn(first.base);
    const solvers = [await signIn(first.base), await signIn(first.base), await signIn(first.base)];
    const SPAM = 5_000_000n; // default USDC spam fee
    const REST = 777n; // left over after funding, so the final balance is not a round number
    const rewards = { cjEmpty: 1_000_000n, cjJudging: 2_000_000n, fvmInvalid: 3_000_000n, fvmEmpty: 4_000_000n };
    const funding = Object.values(rewards).reduce((s, r) => s + r + SPAM, 0n);
    await httpCredit(first.base, creator.address, funding + REST);

    // Deadlines a few seconds ahead (the server's own clock decides), room for the setup below.
    const deadlineMs = Date.now() + 6_000;
    const deadline = new Date(deadlineMs).toISOString();
    const create = async (title: string, reward: bigint, verification: unknown) => {
      const r = await call(
        first.base,
        "POST",
        "/missions",
        {
          title,
          description: "restart test",
          reward: { asset: "USDC", amount: reward.toString() },
          verification,
          deadline,
        },
        creator.token,
      );
      expect(r.status, r.text).toBe(201);
      return r.body.id as string;
    };
    const ids = {
      cjEmpty: await create("creator_judges, nobody submits", rewards.cjEmpty, { type: "creator_judges" }),
      cjJudging: await create("creator_judges with submissions", rewards.cjJudging, { type: "creator_judges" }),
      fvmInvalid: await create("first_valid_match, only wrong answers", rewards.fvmInvalid, {
        type: "first_valid_match",
        params: { expected: "the one right answer" },
      }),
      fvmEmpty: await create("first_valid_match, nobody submits", rewards.fvmEmpty, {
        type: "first_valid_match",
        params: { expected: "anything" },
      }),
    };
    const submit = (id: string, s: { token: string }, content: string) =>
      call(first.base, "POST", `/missions/${id}/submissions`, { content }, s.token);
    const judged = [];
    for (const s of solvers.slice(0, 2)) {
      const r = await submit(ids.cjJudging, s, `my work, ${s.address}`);
      expect(r.status, r.text).toBe(201);
      judged.push(r.body.id as string);
    }
    for (const s of solvers.slice(1)) {
      const r = await submit(ids.fvmInvalid, s, `a wrong answer from ${s.address}`);
      expect(r.body).toMatchObject({ status: "rejected", reason: "expected_not_matched" });
    }
    for (const id of Object.values(ids))
      expect((await call(first.base, "GET", `/missions/${id}`)).body.status).toBe("open");
    await kill(first);

    // Wait until the deadlines have passed (same machine clock as the servers').
    await until(
      () => Date.now() > deadlineMs + 100,
      () => "the deadline never passed",
    );
    // Two servers on the same database at once: their job loops race for the same due missions.
    const [second, third] = await Promise.all([startServer(env()), startServer(env())]);
    cleanups.push(
      () => kill(second!),
      () => kill(third!),
    );
    const bases = [second!.base, third!.base];

    const expected: Record<keyof typeof ids, Record<string, unknown>> = {
      cjEmpty: { status: "voided", phase: "closed", resolution_reason: "expired_without_submissions" },
      cjJudging: { status: "escrowed", phase: "judging" },
      fvmInvalid: { status: "voided", phase: "closed", resolution_reason: "no_valid_submission" },
      fvmEmpty: { status: "voided", phase: "closed", resolution_reason: "expired_without_submissions" },
    };
    let polls = 0;
    let missions: Record<string, unknown>[] = [];
    await until(
      async () => {
        missions = await Promise.all(
          Object.values(ids).map(async (id) => (await call(bases[polls++ % 2]!, "GET", `/missions/${id}`)).body),
        );
        return Object.keys(ids).every((k, j) =>
          Object.entries(expected[k as keyof typeof ids]).every(([f, v]) => missions[j]![f] === v),
        );
      },
      () => `missions not settled: ${JSON.stringify(missions.map((m) => [m.id, m.status, m.phase]))}`,
      30_000,
      100,
    );
    // Let both job loops run several more rounds: nothing may happen twice.
    await afterJobRounds(bases, 5);

    const cj = (await call(second!.base, "GET", `/missions/${ids.cjJudging}`)).body;
    expect(cj).toMatchObject({ status: "escrowed", phase: "judging", resolution: null });
    expect(new Date(cj.judging_deadline).getTime()).toBe(new Date(deadline).getTime() + 7 * 86_400_000);
    const subs = (await call(second!.base, "GET", `/missions/${ids.cjJudging}/submissions`)).body.submissions;
    expect(subs.map((s: { status: string }) => s.status)).toEqual(["pending", "pending"]);

    const balance = async (address: string, base = bases[0]!) =>
      BigInt((await call(base, "GET", `/agents/${address}/balance`)).body.aigen_balance);
    // Each void refunded exactly once; the judging mission's reward is still in escrow.
    expect(await balance(creator.address)).toBe(REST + rewards.cjEmpty + rewards.fvmInvalid + rewards.fvmEmpty);
    expect(await balance(creator.address, bases[1]!)).toBe(
      REST + rewards.cjEmpty + rewards.fvmInvalid + rewards.fvmEmpty,
    );
    for (const s of solvers) expect(await balance(s.address)).toBe(0n);
    const verify = async () => (await call(bases[1]!, "GET", "/admin/ledger/verify", undefined, E2E_ADMIN)).body;
    let report = await verify();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    // 1 credit (2 entries) + 4 fundings (3 each: creator, escrow, treasury) + 3 refunds (2 each).
    expect(report.entries).toBe(2 + 3 * 4 + 2 * 3);

    // The judging mission still works after the restart: the creator (whose session survived)
    // awards it on one server; the other server's loop must not touch it again.
    const award = await call(
      third!.base,
      "POST",
      `/missions/${ids.cjJudging}/award`,
      { winners: [{ submission_id: judged[1] }] },
      creator.token,
    );
    expect(award.status, award.text).toBe(200);
    expect(award.body).toMatchObject({ status: "resolved", resolution_reason: "creator_award" });
    const fee = (rewards.cjJudging * 50n) / 10_000n;
    await until(
      async () => (await balance(solvers[1]!.address)) === rewards.cjJudging - fee,
      async () => `winner not paid: ${await balance(solvers[1]!.address)}`,
    );
    await afterJobRounds(bases); // both job loops tick a few more times: nothing may be paid twice
    expect(await balance(solvers[1]!.address)).toBe(rewards.cjJudging - fee);
    expect(await balance(solvers[0]!.address)).toBe(0n);
    expect(await balance(creator.address)).toBe(REST + rewards.cjEmpty + rewards.fvmInvalid + rewards.fvmEmpty);
    report = await verify();
    expect(report.problems).toEqual([]);
    expect(report.entries).toBe(2 + 3 * 4 + 2 * 3 + 3);
  }, 60_000);

  it("SIGKILL while the sweeper is voiding overdue missions: the next server finishes, nothing twice", async () => {
    const db = await freshDatabase(cleanups, "oabp_restart_mid");
    const env = (interval: string) => {
      const dir = tempDir(cleanups, "oabp-restart-mid");
      return { DATABASE_URL: db.url, OABP_DATA_DIR: dir, OABP_JOB_INTERVAL_MS: interval };
    };
    // Setup on a server without a job loop.
    const setup = await startServer(env("0"));
    cleanups.push(() => kill(setup));
    const creator = await signIn(setup.base);
    const N = 120;
    const REWARD = 1_000_000n; // the minimum reward (docs/decisions.md "Amounts as people write them")
    const SPAM = 5_000_000n;
    await httpCredit(setup.base, creator.address, BigInt(N) * (REWARD + SPAM));
    // Each mission's deadline is 3 s after its own creation, so a slow setup on a loaded machine
    // cannot push a creation past its deadline; the setup server has no job loop to act on them.
    let deadlineMs = 0;
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      deadlineMs = Date.now() + 3_000;
      const r = await call(
        setup.base,
        "POST",
        "/missions",
        {
          title: `overdue ${i}`,
          description: "voided by the sweeper",
          reward: { asset: "USDC", amount: REWARD.toString() },
          verification: { type: "creator_judges" },
          deadline: new Date(deadlineMs).toISOString(),
        },
        creator.token,
      );
      expect(r.status, r.text).toBe(201);
      ids.push(r.body.id);
    }
    await kill(setup);
    await until(
      () => Date.now() > deadlineMs + 100,
      () => "the deadline never passed",
    );

    // Every mission is overdue now. Start a server with its loop and kill it as soon as it has
    // voided some but not all of them (watched through the database).
    const { default: postgres } = await import("postgres");
    const watch = postgres(db.url, { max: 1, onnotice: () => {} });
    cleanups.unshift(() => watch.end());
    const voided = async () =>
      Number((await watch`select count(*)::int as n from missions where status = 'voided'`)[0]!.n);
    const victim = await startServer(env("20"));
    cleanups.push(() => kill(victim));
    await until(
      async () => (await voided()) > 0,
      () => "the victim's sweep never started",
      30_000,
      2,
    );
    victim.child.kill("SIGKILL");
    await victim.exited;
    const atCrash = await voided();
    expect(atCrash, "the crash must land while the sweep is in progress").toBeGreaterThan(0);
    expect(atCrash).toBeLessThan(N);

    const next = await startServer(env("50"));
    cleanups.push(() => kill(next));
    await until(
      async () => (await voided()) === N,
      async () => `only ${await voided()} of ${N} voided after the restart`,
    );
    await afterJobRounds([next.base]); // the loop ticks a few more times: nothing may be refunded twice
    // Each mission refunded exactly once: the creator holds N rewards; the chain has
    // 1 credit (2 entries) + N fundings (3 each) + N refunds (2 each).
    expect(BigInt((await call(next.base, "GET", `/agents/${creator.address}/balance`)).body.aigen_balance)).toBe(
      BigInt(N) * REWARD,
    );
    const report = (await call(next.base, "GET", "/admin/ledger/verify", undefined, E2E_ADMIN)).body;
    expect(report.problems).toEqual([]);
    expect(report.entries).toBe(2 + 3 * N + 2 * N);
  }, 90_000);
});
