import type { paths } from "../generated/openapi.js";

// Flag lists the parser (run.ts) needs before any command module is loaded: run.ts imports the
// commands lazily, so these live apart from missions.ts (which re-exports LIST_QUERY_FLAGS).

type ListQuery = NonNullable<paths["/missions"]["get"]["parameters"]["query"]>;
type Kebab<S extends string> = S extends `${infer A}_${infer B}` ? `${A}-${Kebab<B>}` : S;

/**
 * One entry per query parameter of GET /missions, as the generated OpenAPI types name them (the
 * server's zod query schema): a parameter the server adds and the CLI lacks fails `tsc`, and a
 * flag the server does not take fails it too. `limit` is parsed apart (a number).
 */
const LIST_QUERY: { readonly [K in Exclude<keyof ListQuery, "limit"> as Kebab<K>]-?: true } = {
  "mission-type": true,
  status: true,
  tag: true,
  q: true,
  creator: true,
  asset: true,
  "verification-type": true,
  "reward-min": true,
  "reward-max": true,
  "deadline-after": true,
  "deadline-before": true,
  "creator-min-paid-ratio": true,
  "creator-max-never-judged": true,
  cursor: true,
};

/** `missions list` and `watch` send these as list query parameters (- → _); run.ts declares them to parseArgs. */
export const LIST_QUERY_FLAGS = Object.keys(LIST_QUERY);
