import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createApp } from "../src/app";
import { buildDeps } from "../src/deps.build";
import { parseEnv } from "../src/env";
const [url, route] = process.argv.slice(2);
const deps = await buildDeps(parseEnv({ DATABASE_URL: url!, LOG_LEVEL: "warn", NODE_ENV: "production", OABP_ADMIN_TOKEN: "x".repeat(32), OABP_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "zz-")), OABP_LIST_CACHE_BYTES: "0", OABP_RATE_LIMIT_READ: "9999999/60", OABP_READ_INFLIGHT_PER_CALLER: "10000" }));
const app = createApp(deps);
const get = async () => { const r = await app.fetch(new Request(`http://127.0.0.1${route}`)); const t = await r.text(); if (r.status !== 200) throw new Error(t); return t; };
for (let i = 0; i < 30; i++) await get();
const { Session } = await import("node:inspector/promises");
const session = new Session(); session.connect();
if (process.env.PROF) { await session.post("Profiler.enable"); await session.post("Profiler.setSamplingInterval", { interval: 50 }); await session.post("Profiler.start"); }
const N = Number(process.env.N ?? 200);
const t0 = performance.now(); const c0 = process.cpuUsage();
for (let i = 0; i < N; i++) await get();
const c = process.cpuUsage(c0);
if (process.env.PROF) { const { profile } = await session.post("Profiler.stop"); (await import("node:fs")).writeFileSync(process.env.PROF, JSON.stringify(profile)); }
console.log(route, ((performance.now() - t0) / N).toFixed(3), "ms wall", ((c.user + c.system) / N / 1000).toFixed(3), "ms cpu");
await deps.database.close(); process.exit(0);
