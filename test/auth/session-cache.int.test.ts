import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { maskedCsrfToken } from "../../src/http/session-cookie";
import { sha256Hex } from "../../src/lib/hash";
import type { TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { withSecondInstance } from "../helpers/second-instance";
import { useTestApp } from "../helpers/suite-app";

// Each instance keeps the sign-in sessions it has read (docs/decisions/storage.md "Sessions cached per
// instance"): a sign-out still ends the session at once on every instance (its NOTIFY evicts the
// entry), and an entry is re-read at least every 5 s of the clock anyway. The clock here is manual:
// only what the test does moves it, so a stale entry can only go by a notification.

const t = useTestApp();

/** A signed-in request that needs the session: 200 while it lives, 401 once it is gone. */
const inbox = async (app: { request: TestApp["app"]["request"] }, token: string) =>
  (await app.request("/messages/inbox", { headers: { authorization: `Bearer ${token}` } })).status;

const signOut = (token: string) =>
  t.app.request("/web/session", {
    method: "DELETE",
    headers: { cookie: `oabp_session=${token}`, "x-csrf-token": maskedCsrfToken(token) },
  });

/**
 * Waits until `app` answers `token` from its cache (its listener is up: nothing is cached before):
 * it shows by answering 200 after the row was expired behind its back (no NOTIFY). The row is
 * live again afterwards, expiring a day after the clock's now: that instant is returned.
 */
async function untilCached(app: { request: TestApp["app"]["request"] }, token: string): Promise<Date | undefined> {
  const live = new Date(t.clock.now().getTime() + 86_400_000);
  const expire = (past: boolean) =>
    t.deps.database.db.execute(
      sql`update auth_sessions set expires_at = ${past ? "2000-01-01T00:00:00Z" : live.toISOString()}::timestamptz where token_hash = ${sha256Hex(token)}`,
    );
  let cached = false;
  for (let i = 0; i < 50 && !cached; i++) {
    await expire(false);
    expect(await inbox(app, token)).toBe(200);
    await expire(true);
    cached = (await inbox(app, token)) === 200;
    if (!cached) await new Promise((r) => setTimeout(r, 20));
  }
  await expire(false);
  return cached ? live : undefined;
}

async function until(f: () => Promise<number>, want: number): Promise<number> {
  let v = await f();
  for (let i = 0; i < 100 && v !== want; i++) {
    await new Promise((r) => setTimeout(r, 20));
    v = await f();
  }
  return v;
}

describe("sign-in sessions cached per instance", () => {
  it("a session read once is not read again within the recheck interval; after it, a removed row is seen", async () => {
    const { token } = await signIn(t);
    expect(await untilCached(t.app, token)).toBeDefined();
    // Removed behind the cache's back (no NOTIFY): the cached entry still answers…
    await t.deps.database.db.execute(sql`delete from auth_sessions where token_hash = ${sha256Hex(token)}`);
    expect(await inbox(t.app, token)).toBe(200);
    t.clock.advance(4_900);
    expect(await inbox(t.app, token)).toBe(200);
    // …until the entry is 5 s old: then the row is read again, and it is gone.
    t.clock.advance(200);
    expect(await inbox(t.app, token)).toBe(401);
  });

  it("a cached session is never used past its expiry", async () => {
    const { token } = await signIn(t);
    const expiresAt = await untilCached(t.app, token);
    expect(expiresAt).toBeDefined();
    t.clock.set(new Date(expiresAt!.getTime() - 1_000));
    expect(await inbox(t.app, token)).toBe(200); // read again (the entry was old), cached now
    await t.deps.database.db.execute(sql`delete from auth_sessions where token_hash = ${sha256Hex(token)}`);
    // One second later the entry is fresh but the session has expired: it is not used.
    t.clock.advance(1_000);
    expect(await inbox(t.app, token)).toBe(401);
  });

  it("sign-out ends the session on this instance at once", async () => {
    const { token } = await signIn(t);
    expect(await inbox(t.app, token)).toBe(200);
    expect((await signOut(token)).status).toBe(204);
    expect(await inbox(t.app, token)).toBe(401);
  });

  it.runIf(onRealPostgres)("sign-out on one instance ends the session another instance has cached", async () => {
    const { token } = await signIn(t);
    await withSecondInstance(t, 0, async (other) => {
      expect(await untilCached(other, token)).toBeDefined();
      expect((await signOut(token)).status).toBe(204);
      // The manual clock does not move: only the sign-out's NOTIFY can take the entry out.
      expect(await until(() => inbox(other, token), 401)).toBe(401);
    });
  });
});
