import { desc, eq } from "drizzle-orm";
import { openDatabase } from "../src/db/client";
import { agentRecords, missions } from "../src/db/schema/index";
import { type ListConditions, listWhere, MISSION_REF } from "../src/features/missions/missions.queries";

// EXPLAIN (ANALYZE, BUFFERS) of the list page query the server runs for some filters, against a
// bench database — how the plans in bench/README.md are printed:
//   npx tsx bench/explain.ts postgres://postgres@127.0.0.1:5432/bench_scale_1000000 \
//     '{"rewardMin":"250000000","rewardMax":"250000000","pageRows":51}'
// The JSON is a ListConditions (missions.queries.ts); deadlines as ISO strings.

const [url, json] = process.argv.slice(2);
if (!url || !json) {
  console.error("usage: tsx bench/explain.ts <database url> '<ListConditions JSON>'");
  process.exit(2);
}
const raw = JSON.parse(json) as Record<string, unknown>;
const f = {
  ...raw,
  deadlineAfter: raw.deadlineAfter ? new Date(raw.deadlineAfter as string) : undefined,
  deadlineBefore: raw.deadlineBefore ? new Date(raw.deadlineBefore as string) : undefined,
} as ListConditions;
const db = await openDatabase({ url, poolMax: 1, migrate: false });
try {
  const { sql, params } = db.db
    .select(MISSION_REF)
    .from(missions)
    .leftJoin(agentRecords, eq(agentRecords.agentId, missions.creator))
    .where(listWhere(f))
    .orderBy(desc(missions.id))
    .limit(f.pageRows ?? 51)
    .toSQL();
  // Inline the parameters (EXPLAIN of a parameterised statement would need PREPARE).
  const text = sql.replace(/\$(\d+)/g, (_, i: string) => {
    const p = params[Number(i) - 1];
    return typeof p === "number"
      ? String(p)
      : `'${String(p instanceof Date ? p.toISOString() : p).replace(/'/g, "''")}'`;
  });
  const r = (await db.db.execute(`explain (analyze, buffers) ${text}` as never)) as unknown;
  for (const row of (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Record<string, string>[])
    console.log(row["QUERY PLAN"]);
} finally {
  await db.close();
}
