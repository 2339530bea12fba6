import { sql } from "drizzle-orm";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect } from "vitest";
import type { TestApp } from "../helpers/app";

// What the badge and leaderboard suites (badge-leaderboard.int.test.ts, leaderboard.int.test.ts)
// set up: agents whose ratings are written by direct SQL on `agents`, the way resolutions and
// decay leave them, at instants counted from the test clock's start.

export const DAY = 86_400_000;
export const T0 = "2026-06-01T00:00:00.000Z";
export const at = (offsetMs: number) => new Date(new Date(T0).getTime() + offsetMs);
export const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

export interface Seed {
  id: string;
  rating: number;
  lastActiveAt?: Date | null;
  decayWeeksApplied?: number;
  completed?: number;
  attempted?: number;
  displayName?: string | null;
}

/** Inserts or overwrites each agent row. */
export async function seedAgents(t: TestApp, rows: Seed[]) {
  for (const r of rows) {
    await t.deps.database.db.execute(sql`
      insert into agents (id, display_name, rating, last_active_at, decay_weeks_applied, missions_completed, missions_attempted, created_at, updated_at)
      values (${r.id}, ${r.displayName ?? null}, ${r.rating}, ${r.lastActiveAt ? r.lastActiveAt.toISOString() : null}::timestamptz, ${r.decayWeeksApplied ?? 0},
              ${r.completed ?? 0}, ${r.attempted ?? r.completed ?? 0}, ${T0}::timestamptz, ${T0}::timestamptz)
      on conflict (id) do update set display_name = excluded.display_name, rating = excluded.rating, last_active_at = excluded.last_active_at,
        decay_weeks_applied = excluded.decay_weeks_applied, missions_completed = excluded.missions_completed, missions_attempted = excluded.missions_attempted`);
  }
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_" });

/** Validates the SVG with a real XML parser and returns what a reader of the badge sees. */
export function readBadge(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  const svg = xml.parse(text).svg;
  expect(svg["@_xmlns"]).toBe("http://www.w3.org/2000/svg");
  const texts = (svg.g as { text?: unknown }[]).flatMap((g) => (g.text ? [g.text].flat() : [])) as {
    "#text": string | number;
  }[];
  return { svg, title: String(svg.title), texts: texts.map((x) => String(x["#text"])) };
}
