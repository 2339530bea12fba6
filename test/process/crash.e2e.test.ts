import { describe, expect, it } from "vitest";
import { onRealPostgres } from "../helpers/db";
import { E2E_ADMIN, httpSignIn, startServer } from "../helpers/process";
import { freshDatabase, httpCredit, killProcess as kill, tempDir, useCleanups } from "../helpers/process-suite";

// A crash at any line: SIGKILL the real server while it is creating missions (each one a
// transaction that debits the creator, funds escrow and the treasury, writes the mission and its
// idempotency row). After a restart every base unit must be accounted for, the hash chain must
// verify, and retrying every Idempotency-Key must yield exactly one mission per key.
describe.runIf(onRealPostgres)("crash safety on real Postgres", () => {
  const cleanups = useCleanups();

  it("SIGKILL mid-load loses nothing and duplicates nothing", async () => {
    const db = await freshDatabase(cleanups, "oabp_crash");
    const env = { DATABASE_URL: db.url, OABP_DATA_DIR: tempDir(cleanups, "oabp-crash") };
    const first = await startServer(env);
    cleanups.push(() => kill(first));

    const call = async (
      base: string,
      method: string,
      p: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(base + p, {
        method,
        headers: { ...(body !== undefined && { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const { account, token } = await httpSignIn(first.base);
    const auth = { authorization: `Bearer ${token}` };

    const N = 200;
    const REWARD = 1_000_000n;
    const FEE = 5_000_000n; // default USDC spam fee
    const admin = { authorization: `Bearer ${E2E_ADMIN}` };
    await httpCredit(first.base, account.address, BigInt(N) * (REWARD + FEE));

    const deadline = new Date(Date.now() + 86_400_000).toISOString(); // a retry must send the same body
    const body = (i: number) => ({
      title: `Crash mission ${i}`,
      description: "Created under load, interrupted by SIGKILL.",
      reward: { asset: "USDC", amount: REWARD.toString() },
      verification: { type: "creator_judges" },
      deadline,
    });
    const create = (base: string, i: number) =>
      call(base, "POST", "/missions", body(i), { ...auth, "idempotency-key": `crash-${i}` });

    // Load with 16 workers; kill the server once 30 creations have succeeded.
    const before = new Map<number, string>();
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < N && !killed) {
        const i = next++;
        try {
          const r = await create(first.base, i);
          if (r.status === 201) before.set(i, r.text);
          if (before.size >= 30 && !killed) {
            killed = true;
            first.child.kill("SIGKILL");
          }
        } catch {
          /* connection died with the server */
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await first.exited;
    expect(before.size).toBeGreaterThanOrEqual(30);
    expect(before.size).toBeLessThan(N);

    const second = await startServer(env);
    cleanups.push(() => kill(second));
    const after = new Map<number, string>();
    for (let i = 0; i < N; i++) {
      const r = await create(second.base, i);
      expect(r.status, r.text).toBe(201);
      after.set(i, r.text);
    }
    // Keys answered before the crash replay byte-identically; every key maps to one mission.
    for (const [i, text] of before) expect(after.get(i)).toBe(text);
    const ids = [...after.values()].map((t) => JSON.parse(t).id as string);
    expect(new Set(ids).size).toBe(N);

    let listed = 0;
    let cursor: string | null = null;
    do {
      const page = JSON.parse(
        (
          await call(
            second.base,
            "GET",
            `/missions?creator=${account.address}&limit=100${cursor ? `&cursor=${cursor}` : ""}`,
          )
        ).text,
      );
      listed += page.missions.length;
      cursor = page.next_cursor;
    } while (cursor);
    expect(listed).toBe(N);
    const balance = JSON.parse((await call(second.base, "GET", `/agents/${account.address}/balance`)).text);
    expect(balance.aigen_balance).toBe(0);
    const verify = JSON.parse((await call(second.base, "GET", "/admin/ledger/verify", undefined, admin)).text);
    expect(verify.problems).toEqual([]);
    expect(verify.ok).toBe(true);
    // 1 credit transfer (2 entries) + N funding transfers (3 entries each).
    expect(verify.entries).toBe(2 + 3 * N);
  }, 120_000);
});
