import { asc, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { agents } from "../../src/db/schema/index";
import { effectiveRating } from "../../src/features/reputation/decay";
import { effectiveRatingSql } from "../../src/features/reputation/leaderboard";
import { newAccount, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";
import { DAY, T0, addr, at, readBadge, seedAgents, type Seed } from "./rating-seed";

// AIP-1 §5 badge through HTTP on a real database, and the decayed rating in SQL against decay.ts.
// The rating-ordered lists: leaderboard.int.test.ts.

const t = useTestApp();
const seed = (rows: Seed[]) => seedAgents(t, rows);
beforeEach(() => t.clock.set(T0));

describe("GET /agents/{id}/badge.svg", () => {
  it("is a valid SVG showing the DECAYED rating: 1500 idle 49 days → 1488 (AIP-1 §5)", async () => {
    const a = await signIn(t);
    expect(
      (await t.call("PUT", `/agents/${a.address}`, { token: a.token, body: { display_name: "Ada" } })).status,
    ).toBe(200);
    await t.deps.database.db.execute(
      sql`update agents set rating = 1500, decay_weeks_applied = 0, last_active_at = ${at(-49 * DAY).toISOString()}::timestamptz where id = ${a.address}`,
    );

    const r = await t.call("GET", `/agents/${a.address}/badge.svg`);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expect(r.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{16,}"$/); // strong: no W/
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    const b = readBadge(r.text);
    expect(b.texts).toEqual(["OABP rating", "OABP rating", "1488", "1488"]);
    expect(b.svg["@_aria-label"]).toBe("OABP rating: 1488");
    expect(b.title).toContain("Ada");
    expect(b.texts).not.toContain("1500");

    // One more full week idle: 1486, and a new ETag.
    t.clock.advance(7 * DAY);
    const later = await t.call("GET", `/agents/${a.address}/badge.svg`);
    expect(readBadge(later.text).texts[2]).toBe("1486");
    expect(later.headers.get("etag")).not.toBe(r.headers.get("etag"));
  });

  it("ETag / If-None-Match → 304 with no body; a changed rating → 200 again", async () => {
    const id = addr(0xb0);
    await seed([{ id, rating: 1700, lastActiveAt: at(-DAY) }]);
    const first = await t.call("GET", `/agents/${id}/badge.svg`);
    const etag = first.headers.get("etag")!;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const r = await t.call("GET", `/agents/${id}/badge.svg`, { headers: { "if-none-match": inm } });
      expect(r.status, inm).toBe(304);
      expect(r.text).toBe("");
      expect(r.headers.get("etag")).toBe(etag);
      expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    }
    expect((await t.call("GET", `/agents/${id}/badge.svg`, { headers: { "if-none-match": '"other"' } })).status).toBe(
      200,
    );
    await seed([{ id, rating: 1716, lastActiveAt: at(-DAY) }]);
    const changed = await t.call("GET", `/agents/${id}/badge.svg`, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(readBadge(changed.text).texts[2]).toBe("1716");
  });

  it("the same badge at /api/agents/{id}/badge.svg and /badge/agent/{id}.svg (any address case)", async () => {
    const id = addr(0xb1);
    await seed([{ id, rating: 1234, lastActiveAt: at(-DAY) }]);
    const canonical = await t.call("GET", `/agents/${id}/badge.svg`);
    for (const path of [
      `/api/agents/${id}/badge.svg`,
      `/badge/agent/${id}.svg`,
      `/api/badge/agent/${id}.svg`,
      `/badge/agent/${id.toUpperCase().replace("0X", "0x")}.svg`,
    ]) {
      const r = await t.call("GET", path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get("content-type"), path).toBe("image/svg+xml; charset=utf-8");
      expect(r.text, path).toBe(canonical.text);
      expect(r.headers.get("etag"), path).toBe(canonical.headers.get("etag"));
    }
    const cond = await t.call("GET", `/badge/agent/${id}.svg`, {
      headers: { "if-none-match": canonical.headers.get("etag")! },
    });
    expect(cond.status).toBe(304);
  });

  it("an address never seen → the default 1400 badge; an invalid id → 400 JSON", async () => {
    const unseen = newAccount().address; // EIP-55 mixed case
    for (const path of [`/agents/${unseen}/badge.svg`, `/badge/agent/${unseen}.svg`]) {
      const r = await t.call("GET", path);
      expect(r.status, path).toBe(200);
      expect(readBadge(r.text).texts[2]).toBe("1400");
    }
    for (const path of [
      "/agents/not-an-address/badge.svg",
      "/badge/agent/not-an-address.svg",
      "/api/badge/agent/0x123.svg",
      "/agents/0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed/badge.svg", // EIP-55 vector with one letter's case flipped
      `/agents/0x${"g".repeat(40)}/badge.svg`,
    ]) {
      expectError(await t.call("GET", path), 400, "INVALID_PARAMETER");
    }
  });

  it("escapes whatever the display name holds; the document stays well-formed", async () => {
    const id = addr(0xb2);
    const nasty = `</title><script>alert("x")</script> & 'q' ]]> \u0001\uFFFE`;
    await seed([{ id, rating: 1450, lastActiveAt: at(-DAY), displayName: nasty }]);
    const r = await t.call("GET", `/agents/${id}/badge.svg`);
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("<script");
    const b = readBadge(r.text);
    expect(b.svg.script).toBeUndefined();
    expect(b.title).toContain(`</title><script>alert("x")</script> & 'q' ]]> \uFFFD\uFFFD`);
  });
});

describe("effective rating in SQL = decay.ts effectiveRating", () => {
  it("agrees on a table of cases, at several instants", async () => {
    const cases: (Seed & { at: Date; expected: number })[] = [
      { id: addr(0x5001), rating: 1500, lastActiveAt: null, at: at(0), expected: 1500 },
      { id: addr(0x5002), rating: 1500, lastActiveAt: at(-6 * DAY), at: at(0), expected: 1500 },
      { id: addr(0x5003), rating: 1500, lastActiveAt: at(-14 * DAY + 1), at: at(0), expected: 1500 }, // 1 ms short of a full week
      { id: addr(0x5004), rating: 1500, lastActiveAt: at(-14 * DAY), at: at(0), expected: 1498 },
      { id: addr(0x5005), rating: 1500, lastActiveAt: at(-49 * DAY), at: at(0), expected: 1488 },
      { id: addr(0x5006), rating: 1488, lastActiveAt: at(-49 * DAY), decayWeeksApplied: 6, at: at(0), expected: 1488 }, // already written
      { id: addr(0x5007), rating: 1490, lastActiveAt: at(-49 * DAY), decayWeeksApplied: 5, at: at(0), expected: 1488 },
      { id: addr(0x5008), rating: 1500, lastActiveAt: at(-49 * DAY), decayWeeksApplied: 9, at: at(0), expected: 1500 }, // more than owed
      { id: addr(0x5009), rating: 1500, lastActiveAt: at(-3650 * DAY), at: at(0), expected: 1000 },
      { id: addr(0x500a), rating: 1001, lastActiveAt: at(-30 * DAY), at: at(0), expected: 1000 },
      { id: addr(0x500b), rating: 990, lastActiveAt: at(-400 * DAY), at: at(0), expected: 990 }, // below 1000 by losses: no decay
      { id: addr(0x500c), rating: 1000, lastActiveAt: at(-400 * DAY), at: at(0), expected: 1000 },
      { id: addr(0x500d), rating: 1500, lastActiveAt: at(5 * DAY), at: at(0), expected: 1500 }, // clock behind the row
      { id: addr(0x500e), rating: 1500, lastActiveAt: at(-49 * DAY), at: at(7 * DAY), expected: 1486 },
      { id: addr(0x500f), rating: 2400, lastActiveAt: at(-10_000 * DAY), at: at(123_456_789), expected: 1000 },
    ];
    await seed(cases);
    // Microseconds written by hand (as `now()` would): the driver truncates them when it reads the
    // row and the SQL truncates them too (600 µs: a driver that rounded would disagree here).
    const micro = addr(0x5010);
    await t.deps.database.db.execute(sql`insert into agents (id, rating, last_active_at, created_at, updated_at)
      values (${micro}, 1500, ${at(-14 * DAY).toISOString()}::timestamptz + interval '600 microseconds', ${T0}::timestamptz, ${T0}::timestamptz)`);

    const instants = [
      ...new Set([
        ...cases.map((c) => c.at.getTime()),
        at(0).getTime(),
        at(DAY / 2).getTime(),
        at(-DAY).getTime(),
        at(70 * DAY + 1).getTime(),
      ]),
    ];
    let compared = 0;
    for (const ms of instants) {
      const now = new Date(ms);
      const rows = await t.deps.database.db
        .select({
          id: agents.id,
          rating: agents.rating,
          lastActiveAt: agents.lastActiveAt,
          decayWeeksApplied: agents.decayWeeksApplied,
          sqlRating: effectiveRatingSql({ now }),
        })
        .from(agents)
        .where(sql`${agents.id} like '0x00000000000000000000000000000000000050%'`)
        .orderBy(asc(agents.id));
      expect(rows).toHaveLength(cases.length + 1);
      for (const row of rows) {
        expect(Number(row.sqlRating), `${row.id} at ${now.toISOString()}`).toBe(effectiveRating({ now }, row));
        const c = cases.find((x) => x.id === row.id);
        if (c && c.at.getTime() === ms) expect(Number(row.sqlRating), row.id).toBe(c.expected);
        compared++;
      }
    }
    expect(compared).toBe(instants.length * (cases.length + 1));
  });
});
