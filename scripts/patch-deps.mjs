// postinstall: three fixes to postgres.js (3.4.x), applied to each of its builds, idempotently.
// Both are about a connection lost under a transaction (a server or pooler restart, a terminated
// backend, idle_in_transaction_session_timeout); test/db/unpipelined.int.test.ts shows each.
//
// 1. A query run on a connection whose socket has already closed was written to a null socket
//    in a setImmediate, and the TypeError was uncaught: the whole process died. Now the query
//    is rejected with CONNECTION_CLOSED, and `true` keeps the caller from moving the dead
//    connection out of the closed ones (the pool reconnects those on demand).
// 2. A query written between the socket's `error` event (which rejects the queries in flight
//    then) and its `close` event was never settled when the close came with an error: the
//    request waited forever. Now every query still pending at the close is rejected.
// 3. A query queued on a reserved connection (sql.reserve(), which src/db/unpipelined.ts runs
//    transactions on) behind one that never got its reply stayed queued forever once the
//    connection closed. Now the close rejects the queue, as begin() does for its own.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "node_modules", "postgres");
const guard = `    if (terminated)\n      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))\n`;
const closeAll = `    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n`;
const reserveFrom = `    c.reserved.release = true\n\n    const sql = Sql(handler)\n    sql.release = () => {\n      c.reserved = null\n`;
const PATCHES = [
  {
    mark: "/* oabp: closed socket */",
    from: guard,
    to: `${guard}    /* oabp: closed socket */\n    if (!socket)\n      return (queryError(q, Errors.connection('CONNECTION_CLOSED', options)), true)\n`,
  },
  {
    mark: "/* oabp: settle at close */",
    from: closeAll,
    // An `if`, not a leading "(": postgres.js has no semicolons, and a line opening with "("
    // would continue the `return reconnect()` above it.
    to: `    /* oabp: settle at close */\n    if (query || sent.length)\n      error(Errors.connection('CONNECTION_CLOSED', options, socket))\n`,
  },
  {
    file: "index.js",
    mark: "/* oabp: reserved queue at close */",
    from: reserveFrom,
    to:
      `    c.reserved.release = true\n    /* oabp: reserved queue at close */\n` +
      `    c.onclose = e => { while (queue.length) queue.shift().reject(e) }\n\n` +
      `    const sql = Sql(handler)\n    sql.release = () => {\n      c.reserved = null\n      c.onclose = null\n`,
  },
];

if (!existsSync(root)) process.exit(0); // installed without postgres: nothing to patch
let failed = false;
for (const build of ["src", "cjs/src", "cf/src"]) {
  for (const name of ["connection.js", "index.js"]) patch(path.join(root, build, name), name);
}
if (failed) process.exit(1);

function patch(file, name) {
  if (!existsSync(file)) return;
  let text = readFileSync(file, "utf8");
  for (const p of PATCHES.filter((x) => (x.file ?? "connection.js") === name)) {
    if (text.includes(p.mark)) continue;
    if (!text.includes(p.from)) {
      console.error(`patch-deps: ${file} lacks the text of "${p.mark}"; review scripts/patch-deps.mjs`);
      failed = true;
      continue;
    }
    text = text.replace(p.from, p.to);
  }
  writeFileSync(file, text);
}
