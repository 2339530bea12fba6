// The write scenario of bench/scale.ts: creator/solver pairs looping create → submit → award on
// the large database, and the floor beside it (the same writers on the baseline's bare INSERT).
import type { Database } from "../src/db/client";
import { sha256Hex } from "../src/lib/hash";
import { log } from "./harness";
import { call, insertSession } from "./writes-setup";

/**
 * 10 creator/solver pairs, each looping create → submit → award for the duration; the step
 * latencies and counts. Sessions are inserted directly (sign-in is not what is measured).
 */
export async function scaleWrites(o: {
  db: Database;
  base: string;
  adminToken: string;
  writers: number;
  seconds: number;
}) {
  const { db, base } = o;
  const pairs: { creator: { address: string; token: string }; solver: { address: string; token: string } }[] = [];
  for (let w = 0; w < o.writers; w++) {
    const mk = async (role: string) => {
      const address = `0x${sha256Hex(`${role}-${w}-${o.adminToken}`).slice(0, 40)}`;
      return { address, token: await insertSession(db, address) };
    };
    const creator = await mk("creator");
    await call(base, "POST", "/admin/ledger/credit", o.adminToken, {
      agent_id: creator.address,
      asset: "USDC",
      amount: "1000000000000000",
    });
    pairs.push({ creator, solver: await mk("solver") });
  }
  // Three phases, each timed on its own (the steps of one closed loop would all show the loop's
  // rate): every writer creates for the duration, then its solver submits to those missions, then
  // the creator awards them. Throughput = completed steps / the phase's wall time.
  const created: string[][] = pairs.map(() => []);
  const submitted: { mission: string; submission: string }[][] = pairs.map(() => []);
  const phase = async (
    key: string,
    step: (w: number, i: number) => Promise<boolean>,
  ): Promise<{ perSec: number; p50: number; p99: number; n: number }> => {
    const lat: number[] = [];
    const t0 = performance.now();
    const until = Date.now() + o.seconds * 1000;
    await Promise.all(
      pairs.map(async (_, w) => {
        for (let i = 0; Date.now() < until; i++) {
          const t = performance.now();
          if (!(await step(w, i))) break;
          lat.push(performance.now() - t);
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    const sorted = [...lat].sort((x, y) => x - y);
    log(`writes ${key}: ${lat.length} in ${secs.toFixed(1)} s`);
    return {
      perSec: lat.length / secs,
      p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
      p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
      n: lat.length,
    };
  };
  const create = await phase("create", async (w, i) => {
    const m = await call(base, "POST", "/missions", pairs[w]!.creator.token, {
      title: `Bench write ${w}-${i}`,
      description: "A mission created by the scale bench write scenario.",
      reward: { asset: "USDC", amount: "10000000" },
      verification: { type: "creator_judges", params: {} },
      deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      tags: ["bench"],
    });
    created[w]!.push(m.id as string);
    return true;
  });
  const submit = await phase("submit", async (w, i) => {
    const mission = created[w]![i];
    if (!mission) return false;
    const s = await call(base, "POST", `/missions/${mission}/submissions`, pairs[w]!.solver.token, {
      content: `answer ${w}-${i}`,
    });
    submitted[w]!.push({ mission, submission: s.submission_id as string });
    return true;
  });
  const award = await phase("award", async (w, i) => {
    const s = submitted[w]![i];
    if (!s) return false;
    await call(base, "POST", `/missions/${s.mission}/award`, pairs[w]!.creator.token, {
      winners: [{ submission_id: s.submission }],
    });
    return true;
  });
  return { create, submit, award };
}

/** The write floor: the same writers POST a mission-sized body to the baseline's bare INSERT. */
export async function bareWrites(o: { baselineBase: string; writers: number; seconds: number }): Promise<number> {
  const { baselineBase, writers } = o;
  let n = 0;
  const t0 = performance.now();
  const until = Date.now() + o.seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        await call(baselineBase, "POST", "/write", undefined, {
          title: `Bench write ${w}-${i}`,
          description: "A mission created by the scale bench write scenario.",
          reward: { asset: "USDC", amount: "10000000" },
        });
        n++;
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}
