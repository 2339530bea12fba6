import type { paths } from "../generated/openapi.js";

// What each `oabp` command sends, typed from the generated OpenAPI types (the server's zod
// schemas): the list filters and every request body a command fills. A field the server adds and
// the CLI does not place fails `tsc` here, and a field the server drops fails it too. run.ts
// declares the flags to parseArgs from these tables; the REST-surface test reads them. They live
// apart from the command modules because run.ts imports those lazily.

type Kebab<S extends string> = S extends `${infer A}_${infer B}` ? `${A}-${Kebab<B>}` : S;
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
type Body<P extends keyof paths, M extends "post" | "put"> = Json<NonNullable<paths[P][M]>["requestBody"]>;
type ListQuery = NonNullable<paths["/missions"]["get"]["parameters"]["query"]>;

/**
 * How a command fills one request field: a flag (`--name`), a positional argument (`<name>`),
 * computed by the command (signatures, hashes), only inside the JSON body file (`--file`), or not
 * sent by the command ("none": an MCP tool carries it, or the REST-surface test says why not).
 */
type Via = `--${string}` | `<${string}>` | "computed" | "none";
type Fields<T> = { readonly [K in keyof T]-?: Via };

/** One entry per GET /missions query parameter (- for _); `limit` is parsed apart (a number). */
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

/** `missions list` and `watch` send these as list query parameters (- → _). */
export const LIST_QUERY_FLAGS = Object.keys(LIST_QUERY);

/** `missions create`: the common fields as flags, every field through `--file body.json`. */
const CREATE_MISSION: Fields<Body<"/missions", "post">> = {
  title: "--title",
  description: "--description",
  reward: "--reward", // whole units; --reward-base-units for exact base units
  verification: "--verification",
  deadline: "--deadline",
  tags: "--tags",
  language: "--language",
  creator: "--file",
  max_claims: "--file",
  exclusive_claim_ttl: "--file",
  mission_type: "--file",
  type_params: "--file",
  min_submitter_elo: "--file",
  eligibility: "--file",
  skill_id: "--file",
};

/** The request bodies `oabp` commands send, by REST operation. */
export const CLI_REQUESTS = {
  "POST /missions": { command: "missions create", fields: CREATE_MISSION },
  "POST /missions/{id}/submissions": {
    command: "submit / reveal",
    fields: {
      content: "<file>",
      content_uri: "--uri",
      content_hash: "--hash",
      salt: "--salt",
      metadata: "none",
    } satisfies Fields<Body<"/missions/{id}/submissions", "post">>,
  },
  "POST /missions/{id}/award": {
    command: "award",
    fields: { winners: "<submission>", release_signatures: "computed" } satisfies Fields<
      Body<"/missions/{id}/award", "post">
    >,
  },
  "POST /missions/{id}/votes": {
    command: "vote",
    fields: { submission_id: "<submission>", amount: "<stake>" } satisfies Fields<Body<"/missions/{id}/votes", "post">>,
  },
  "POST /missions/{id}/commitments": {
    command: "commit",
    fields: { commitment: "computed" } satisfies Fields<Body<"/missions/{id}/commitments", "post">>,
  },
  "POST /missions/{id}/escrow": {
    command: "fund",
    fields: { tx_hash: "computed" } satisfies Fields<Body<"/missions/{id}/escrow", "post">>,
  },
  "POST /webhooks": {
    command: "webhooks add",
    fields: { url: "<url>", events: "--events", filters: "--filters" } satisfies Fields<Body<"/webhooks", "post">>,
  },
  "POST /admin/ledger/credit": {
    command: "admin credit",
    fields: { agent_id: "<agent>", amount: "<amount>", asset: "--asset", memo: "none" } satisfies Fields<
      Body<"/admin/ledger/credit", "post">
    >,
  },
  "POST /auth/siwe": {
    command: "login",
    fields: { message: "computed", signature: "computed" } satisfies Fields<Body<"/auth/siwe", "post">>,
  },
} as const;

/** The flags the request tables name (parseArgs must accept each). */
export const REQUEST_FLAGS = [
  ...new Set(
    Object.values(CLI_REQUESTS).flatMap(({ fields }) =>
      Object.values(fields as Record<string, Via>).flatMap((v) => (v.startsWith("--") ? [v.slice(2)] : [])),
    ),
  ),
];
