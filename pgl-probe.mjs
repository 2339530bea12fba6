import { PGlite } from "@electric-sql/pglite";
const dir = process.argv[2]; const extra = process.argv.slice(3);
const c0 = process.cpuUsage(); const t0 = performance.now();
const db = await PGlite.create(dir, extra.length ? { startParams: [...PGlite.defaultStartParams ?? [], ...extra] } : {});
await db.query("select 1");
const c1 = process.cpuUsage(c0);
const sb = (await db.query("show shared_buffers")).rows[0];
console.log(JSON.stringify(sb), `${(performance.now()-t0).toFixed(0)} ms wall, ${((c1.user+c1.system)/1000).toFixed(0)} ms cpu`);
await db.close(); process.exit(0);
