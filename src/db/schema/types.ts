import { customType, numeric, timestamp } from "drizzle-orm/pg-core";

/** uint256-capable money column: numeric(78,0), surfaced as a base-10 string. */
export const money = (name: string) => numeric(name, { precision: 78, scale: 0 });
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
