import { openDatabase } from "../src/db/client";
import {
  filteredPage,
  type ListConditions,
  rewardPageQuery,
  selectRefs,
  tagOnly,
  tagPageRefs,
} from "../src/features/missions/missions.queries";

// EXPLAIN (ANALYZE, BUFFERS) of the list page query the server runs for some filters, against a
// bench database — how the plans in bench/README.md are printed:
//   npx tsx bench/explain.ts postgres://postgres@127.0.0.1:5432/bench_scale_1000000 \
//     '{"rewardMin":"250000000","rewardMax":"250000000","pageRows":51}'
// The JSON is a ListConditions (missions.queries.ts); deadlines as ISO strings.
//
// The server's driver (postgres.js, `prepare: true`) sends every statement as a named prepared
// statement, and Postgres switches a prepared statement to its generic plan after five custom
// plans when the generic one looks no dearer — a plan EXPLAIN of the inlined text never shows.
// So the statement is prepared as the server's is, executed six times, and explained on the
// seventh execution (the plan the server runs from then on), then once more (warm): the last
// plan printed is the one to read.

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
  // The same choice as missions.list.ts listMissionsPage.
  const { sql, params } = (
    tagOnly(f)
      ? tagPageRefs(db.db, { tag: f.tag, before: f.before, pageRows: f.pageRows ?? 51 })
      : (rewardPageQuery(db.db, f) ?? filteredPage(selectRefs(db.db).$dynamic(), { where: f, rows: f.pageRows ?? 51 }))
  ).toSQL();
  const literal = (p: unknown) =>
    typeof p === "number" ? String(p) : `'${String(p instanceof Date ? p.toISOString() : p).replace(/'/g, "''")}'`;
  const args = params.length ? `(${params.map(literal).join(", ")})` : "";
  const run = async (text: string) => {
    const r = (await db.db.execute(text as never)) as unknown;
    return (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Record<string, string>[];
  };
  // One connection (poolMax 1): the prepared statement lives in its session.
  if (process.env.EXPLAIN_GENERIC) await run("set plan_cache_mode = force_generic_plan");
  await run(`prepare oabp_explain as ${sql}`);
  for (let i = 0; i < 6; i++) await run(`execute oabp_explain${args}`);
  await run(`explain (analyze, buffers) execute oabp_explain${args}`);
  for (const row of await run(`explain (analyze, buffers) execute oabp_explain${args}`)) console.log(row["QUERY PLAN"]);
} finally {
  await db.close();
}
