import type { Db } from "./client";

// Prepared statements belong to a database handle (docs/design.md "Fixed stack": an unprepared query
// is parsed and planned on every call). Behind a transaction-mode pooler the client runs with
// prepare: false and the same statements go out unnamed (src/db/client.ts).

/** `build(db)` once per database handle, then the same statements for every call on it. */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let v = built.get(db);
    if (v === undefined) {
      v = build(db);
      built.set(db, v);
    }
    return v;
  };
}
