import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { encodeAbiParameters, keccak256, parseAbiParameters, type Hex } from "viem";
import { AVAILABILITY_WINDOW_SECONDS, isOnline } from "../../src/features/heartbeats/heartbeats.service";
import { ADMIN_TOKEN } from "../helpers/app";
import { newAccount, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// Agent Mesh heartbeats and ClawFinder last_seen_at (docs/design.md "Discovery (§7–§9) and neighbours"):
// POST /agents/{id}/heartbeat by the agent itself; every authenticated request also marks the
// agent seen, at most once a minute.

const REGISTRY = newAccount();
const t = useTestApp({
  OABP_REGISTRIES: JSON.stringify([{ domain: "registry.example", signer: REGISTRY.address }]),
});

const lastSeen = async (address: string) =>
  (await t.call("GET", `/agents/${address}`)).body.last_seen_at as string | null;
const at = (offsetMs: number, from: Date) => new Date(from.getTime() + offsetMs).toISOString();

describe("POST /agents/{id}/heartbeat", () => {
  it("the agent itself: 200 online, last_seen_at = now, visible on GET /agents/{id} (also under /api)", async () => {
    const a = await signIn(t);
    t.clock.advance(5 * 60_000);
    const now = t.clock.now();
    const r = await t.call("POST", `/agents/${a.address}/heartbeat`, { token: a.token });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      agent_id: a.address,
      status: "online",
      online: true,
      last_seen_at: now.toISOString(),
      online_until: at(AVAILABILITY_WINDOW_SECONDS * 1000, now),
      availability_window_seconds: 180,
    });
    expect(await lastSeen(a.address)).toBe(now.toISOString());

    // 30 s later, through /api and a checksummed id: the heartbeat always writes (no throttle)
    t.clock.advance(30_000);
    const again = await t.call("POST", `/api/agents/${a.account.address}/heartbeat`, { token: a.token, body: {} });
    expect(again.status, again.text).toBe(200);
    expect(again.body.last_seen_at).toBe(t.clock.now().toISOString());
    expect(await lastSeen(a.address)).toBe(t.clock.now().toISOString());
  });

  it("a registry-bound api_key heartbeats as its bound address", async () => {
    const agent = newAccount();
    const f = {
      api_key: `hb-${crypto.randomUUID()}`,
      evm_address: agent.address,
      issued_at: t.clock.now().toISOString(),
      registry_domain: "registry.example",
    };
    const hash = keccak256(
      encodeAbiParameters(parseAbiParameters("string, address, string"), [
        f.api_key,
        f.evm_address as Hex,
        f.issued_at,
      ]),
    );
    const bound = await t.call("POST", "/attestations/registry", {
      body: { ...f, signature: await REGISTRY.sign({ hash }) },
    });
    expect(bound.status, bound.text).toBe(200);
    const id = agent.address.toLowerCase();
    expect(await lastSeen(id)).toBeNull(); // binding alone is not being seen
    t.clock.advance(1000);
    const r = await t.call("POST", `/agents/${id}/heartbeat`, { headers: { "x-api-key": f.api_key } });
    expect(r.status, r.text).toBe(200);
    expect(await lastSeen(id)).toBe(t.clock.now().toISOString());
  });

  it("another agent's id → 403 FORBIDDEN and its last_seen_at is untouched", async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    const before = await lastSeen(b.address);
    t.clock.advance(5 * 60_000);
    const r = await t.call("POST", `/agents/${b.address}/heartbeat`, { token: a.token });
    expectError(r, 403, "FORBIDDEN");
    expect(r.body.details.reason).toBe("not_self");
    expect(await lastSeen(b.address)).toBe(before);
    // a never-seen address is someone else too, and gets no row
    const ghost = newAccount().address.toLowerCase();
    expectError(await t.call("POST", `/agents/${ghost}/heartbeat`, { token: a.token }), 403, "FORBIDDEN");
    expect((await t.call("GET", `/agents/${ghost}`)).body).toMatchObject({ registered: false, last_seen_at: null });
  });

  it("anonymous → 401 (no credentials, an unbound api_key, a bad bearer); the admin token → 403", async () => {
    const a = await signIn(t);
    const before = await lastSeen(a.address);
    t.clock.advance(5 * 60_000);
    expectError(await t.call("POST", `/agents/${a.address}/heartbeat`), 401, "UNAUTHORIZED");
    expectError(
      await t.call("POST", `/agents/${a.address}/heartbeat`, { headers: { "x-api-key": "never-attested" } }),
      401,
      "UNAUTHORIZED",
    );
    expectError(await t.call("POST", `/agents/${a.address}/heartbeat`, { token: "oabp_forged" }), 401, "UNAUTHORIZED");
    expectError(await t.call("POST", `/agents/${a.address}/heartbeat`, { token: ADMIN_TOKEN }), 403, "FORBIDDEN");
    expect(await lastSeen(a.address)).toBe(before);
  });

  it("a malformed id → 400 INVALID_PARAMETER", async () => {
    const a = await signIn(t);
    // mixed case must be a valid EIP-55 checksum: flipping one letter's case breaks it
    const badChecksum = a.account.address.replace(/[a-fA-F]/, (c) =>
      c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase(),
    );
    for (const id of ["0x1234", "not-an-address", `0x${"g".repeat(40)}`, badChecksum]) {
      expectError(await t.call("POST", `/agents/${id}/heartbeat`, { token: a.token }), 400, "INVALID_PARAMETER");
    }
  });
});

describe("every authenticated request marks the agent seen (throttled to once a minute)", () => {
  it("bumps last_seen_at on any authenticated request older than 60 s, not within 60 s, never for anonymous ones", async () => {
    const a = await signIn(t);
    const t0 = t.clock.now();
    expect(await lastSeen(a.address)).toBe(t0.toISOString()); // sign-in is a sighting
    const authed = (path = `/missions?limit=1`) => t.call("GET", path, { token: a.token });

    t.clock.advance(30_000);
    expect((await authed()).status).toBe(200);
    expect(await lastSeen(a.address)).toBe(t0.toISOString()); // 30 s: throttled

    t.clock.set(at(61_000, t0));
    expect((await authed()).status).toBe(200);
    expect(await lastSeen(a.address)).toBe(at(61_000, t0)); // 61 s: written

    t.clock.set(at(100_000, t0));
    expect((await authed(`/agents/${newAccount().address}`)).status).toBe(200);
    expect(await lastSeen(a.address)).toBe(at(61_000, t0)); // 39 s after the last write: throttled

    t.clock.set(at(125_000, t0));
    // an authenticated request that fails still is the agent calling
    expect((await authed("/missions/mis_01JZ0000000000000000000000")).status).toBe(404);
    expect(await lastSeen(a.address)).toBe(at(125_000, t0));

    // anonymous calls and unknown bearer tokens never touch it
    t.clock.set(at(600_000, t0));
    expect((await t.call("GET", "/missions?limit=1")).status).toBe(200);
    expect((await t.call("GET", "/missions?limit=1", { token: "oabp_forged" })).status).toBe(401);
    expect(await lastSeen(a.address)).toBe(at(125_000, t0));
  });

  it("the throttle counts from the stored time: a heartbeat restarts it, across route and /api mounts", async () => {
    const a = await signIn(t);
    const t0 = t.clock.now();
    t.clock.set(at(70_000, t0));
    await t.call("GET", "/api/missions?limit=1", { token: a.token });
    expect(await lastSeen(a.address)).toBe(at(70_000, t0));
    t.clock.set(at(100_000, t0));
    expect((await t.call("POST", `/agents/${a.address}/heartbeat`, { token: a.token })).status).toBe(200);
    expect(await lastSeen(a.address)).toBe(at(100_000, t0));
    // 65 s after the request-driven write but only 35 s after the heartbeat: no write
    t.clock.set(at(135_000, t0));
    await t.call("GET", "/missions?limit=1", { token: a.token });
    expect(await lastSeen(a.address)).toBe(at(100_000, t0));
    t.clock.set(at(161_000, t0));
    await t.call("GET", "/missions?limit=1", { token: a.token });
    expect(await lastSeen(a.address)).toBe(at(161_000, t0));
  });

  it("an agent seen recently by other means is not written on every request: its stored time is read once", async () => {
    const a = await signIn(t); // sign-in is a sighting, not made by the throttled touch
    const t0 = t.clock.now();
    t.clock.set(at(10_000, t0));
    await t.call("GET", "/missions?limit=1", { token: a.token }); // finds it recent: reads t0 once
    // Moved back behind the instance's back: within 60 s of t0 no request writes it again…
    await t.deps.database.db.execute(
      sql`update agents set last_seen_at = ${at(-3_600_000, t0)}::timestamptz where id = ${a.address}`,
    );
    t.clock.set(at(50_000, t0));
    await t.call("GET", "/missions?limit=1", { token: a.token });
    expect(await lastSeen(a.address)).toBe(at(-3_600_000, t0));
    // …and 60 s after it, the next one does.
    t.clock.set(at(61_000, t0));
    await t.call("GET", "/missions?limit=1", { token: a.token });
    expect(await lastSeen(a.address)).toBe(at(61_000, t0));
  });

  it("concurrent authenticated requests past the throttle all succeed and leave one sighting at now", async () => {
    const a = await signIn(t);
    t.clock.advance(120_000);
    const rs = await Promise.all(
      Array.from({ length: 8 }, () => t.call("GET", "/missions?limit=1", { token: a.token })),
    );
    expect(rs.every((r) => r.status === 200)).toBe(true);
    expect(await lastSeen(a.address)).toBe(t.clock.now().toISOString());
  });
});

describe("availability window (docs/design.md: 180 s)", () => {
  it("online while last_seen_at is at most 180 s old", () => {
    const seen = new Date("2026-06-01T00:00:00.000Z");
    expect(isOnline({ now: seen }, null)).toBe(false);
    expect(isOnline({ now: seen }, seen)).toBe(true);
    expect(isOnline({ now: new Date(seen.getTime() + 180_000) }, seen)).toBe(true);
    expect(isOnline({ now: new Date(seen.getTime() + 180_001) }, seen)).toBe(false);
  });
});
