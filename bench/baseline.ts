import { serve } from "@hono/node-server";
import { desc, eq, getTableColumns, lt, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { Hono } from "hono";
import postgres from "postgres";
import { missions } from "../src/db/schema/index";

// The floor the real server is measured against: the same runtime, HTTP adapter, driver, ORM,
// pool size and primary-key query, with nothing else (no middleware, no validation, no OpenAPI
// router, no wire mapping, no logging). Started by bench/run.ts as a child process.
//
// Env: DATABASE_URL (required), PORT (required), HOST (default 127.0.0.1), DATABASE_POOL_MAX (default 10).

const url = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
if (!url || !Number.isInteger(port) || port <= 0) {
  console.error("baseline: DATABASE_URL and PORT are required");
  process.exit(1);
}
const host = process.env.HOST ?? "127.0.0.1";
const poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10);

const client = postgres(url, { max: poolMax, onnotice: () => {}, connect_timeout: 10 });
const db = drizzle(client);

// Every column but the generated tsvector `search`: the real server does not read it either
// (MISSION_COLUMNS in missions.queries.ts), so both sides move the same bytes from Postgres.
const { search: _search, ...columns } = getTableColumns(missions);
const byId = db
  .select(columns)
  .from(missions)
  .where(eq(missions.id, sql.placeholder("id")))
  .prepare("b");

// The page floor (bench:scale): a list page of 50 whole missions, newest first, with a keyset
// cursor — the same prepared query shape, rows as drizzle maps them and c.json, nothing else.
const page = (after: boolean) =>
  db
    .select(columns)
    .from(missions)
    .where(after ? lt(missions.id, sql.placeholder("before")) : undefined)
    .orderBy(desc(missions.id))
    .limit(51)
    .prepare(after ? "bp_after" : "bp_first");
const [pageFirst, pageAfter] = [page(false), page(true)];

const app = new Hono();
app.get("/page", async (c) => {
  const before = c.req.query("before");
  const rows = before ? await pageAfter.execute({ before }) : await pageFirst.execute();
  return c.json({ missions: rows.slice(0, 50), next_cursor: rows.length > 50 ? rows[49]!.id : null });
});
app.get("/missions/:id", async (c) => {
  const [row] = await byId.execute({ id: c.req.param("id") });
  if (!row) return c.json({ error: "not found" }, 404);
  return c.json(row);
});
// The write floor (bench:scale's write scenario): parse a JSON body, one INSERT committed on its
// own, answer its id. A mission creation does this and everything a value move needs besides.
let seq = 0;
app.post("/write", async (c) => {
  const body = await c.req.json();
  const id = `${process.pid}-${++seq}`;
  await client`insert into bench_writes (id, body) values (${id}, ${JSON.stringify(body)}::jsonb)`;
  return c.json({ id }, 201);
});
app.get("/ready", async (c) => {
  await client`create table if not exists bench_writes (id text primary key, body jsonb not null)`;
  await client`select 1`;
  return c.json({ status: "ready" });
});

let stopping = false;
app.onError((e, c) => {
  // Queries cut off by our own shutdown are expected; anything else is a real failure: log it.
  if (!stopping) console.error("baseline: request failed:", e);
  return c.json({ error: "internal" }, 500);
});

const server = serve({ fetch: app.fetch, port, hostname: host });

const shutdown = () => {
  if (stopping) return;
  stopping = true;
  server.close();
  (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
  client.end({ timeout: 2 }).finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
