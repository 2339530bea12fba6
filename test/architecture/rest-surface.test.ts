import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../src/features/mcp";
import { OPENAPI_FILE } from "../../scripts/write-openapi";
import { CLI_REQUESTS, LIST_QUERY_FLAGS } from "../../packages/client/src/cli/flags";
import { BOOL_FLAGS, STRING_FLAGS } from "../../packages/client/src/cli/run";

// Every REST request field (each query parameter and each top-level body field of every operation
// in openapi/openapi.json) reaches an agent some other way — an MCP tool argument or an `oabp` CLI
// flag — or is listed below as REST-only with the reason (docs/decisions/engineering.md "Rules as checks").
// openapi/openapi.json is held to the route schemas by test/openapi/openapi.test.ts.

type Op = { key: string; fields: string[] };
type Schema = { $ref?: string; properties?: Record<string, unknown> };
const doc = JSON.parse(readFileSync(OPENAPI_FILE, "utf8")) as {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: unknown }>>;
  components: { schemas: Record<string, Schema> };
};

function bodyFields(requestBody: unknown): string[] {
  const content = (requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content;
  let schema = content?.["application/json"]?.schema;
  if (schema?.$ref) schema = doc.components.schemas[schema.$ref.split("/").pop() ?? ""];
  return Object.keys(schema?.properties ?? {});
}

const OPS: Op[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
    .map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      fields: [
        ...(op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
        ...bodyFields(op.requestBody),
      ],
    })),
);
const opByKey = new Map(OPS.map((o) => [o.key, o]));

/** The REST operation each MCP tool is the transport of (its arguments are that route's schema). */
const MCP_ROUTES: Record<string, string> = {
  auth_nonce: "POST /auth/nonce",
  sign_in: "POST /auth/siwe",
  list_missions: "GET /missions",
  get_mission: "GET /missions/{id}",
  submit_solution: "POST /missions/{id}/submissions",
  get_agent: "GET /agents/{id}",
  get_receipt: "GET /missions/{id}/receipts/{submission_id}",
  create_mission: "POST /missions",
  vote: "POST /missions/{id}/votes",
  claim_mission: "POST /missions/{id}/claims",
  amend_mission: "POST /missions/{id}/amendments",
  list_questions: "GET /missions/{id}/questions",
  ask_question: "POST /missions/{id}/questions",
  list_skills: "GET /skills",
  list_submissions: "GET /missions/{id}/submissions",
  get_submission: "GET /missions/{id}/submissions/{sid}",
  award_mission: "POST /missions/{id}/award",
  void_mission: "POST /missions/{id}/void",
  get_balance: "GET /agents/{id}/balance",
  deposit: "POST /agents/me/deposits",
  withdraw: "POST /agents/me/withdrawals",
  answer_question: "POST /missions/{id}/questions/{qid}/answer",
  file_dispute: "POST /disputes",
  get_dispute: "GET /disputes/{id}",
};

const snake = (flag: string) => flag.replace(/-/g, "_");
/** The request fields an `oabp` command sends, by operation: the CLI's typed request tables (cli/flags.ts). */
const CLI: Record<string, { command: string; fields: readonly string[] }> = {
  "GET /missions": { command: "missions list", fields: [...LIST_QUERY_FLAGS.map(snake), "limit"] },
  ...Object.fromEntries(
    Object.entries(CLI_REQUESTS).map(([op, { command, fields }]) => [
      op,
      {
        command,
        fields: Object.entries(fields as Record<string, string>).flatMap(([f, via]) => (via === "none" ? [] : [f])),
      },
    ]),
  ),
};

const OPERATOR = "operator surface: the admin token's REST API (docs/operations.md), not an agent's tool";
const PAGING = "paging of a secondary list: the default page is what an agent's tool or command shows";
const MACHINE = "machine-to-machine protocol endpoint (a server or crawler calls it, not an agent's loop)";
const BROWSER = "browser / feed reader surface: the same filters as GET /missions, which the tools and CLI carry";

/** REST-only: an operation ("METHOD path": all its fields) or one field ("METHOD path field"), with the reason. */
const MESH = "the Agent Mesh surface: Mesh clients speak that protocol over HTTP directly";
const REST_ONLY: Record<string, string> = {
  // Agent Mesh (docs/neighbours.md "Agent Mesh"): its own protocol, spoken by Mesh clients over HTTP;
  // discovery (GET /skills) also reaches MCP clients as list_skills.
  "POST /agents/register": MESH,
  "POST /skills": MESH,
  "POST /skills/{id}/invoke": MESH,
  "POST /attestations/registry": MACHINE,
  "PUT /agents/{id}": "profile editing: a one-off done over REST or the web board",
  "GET /agents/{id}/history": PAGING,
  "GET /escrow/decisions":
    "the guardian watch's feed of signed decisions (docs/custody.md): read by `npm run guardian`, not by agents",
  "PUT /agents/{id}/blocklist": "creator's standing block-list: a one-off setting done over REST",
  "GET /leaderboard": BROWSER,
  "GET /agents": "agent directory for people and crawlers; agents find work through GET /missions",
  "POST /agents/{id}/reviews": "reviews are written by people on the board or over REST",
  "GET /agents/{id}/reviews": PAGING,
  "PUT /agents/{id}/reviews/{review_id}": "reviews are written by people on the board or over REST",
  "POST /missions/{id}/submit": "AIP-1 alias of POST /missions/{id}/submissions (the tools and CLI use that one)",
  "POST /missions/{id}/award/typed-data": "the CLI's award computes release_signatures from it (award-sign.ts)",
  "POST /admin/missions/{id}/hide": OPERATOR,
  "POST /admin/missions/{id}/unhide": OPERATOR,
  "POST /admin/agents/{address}/suspend": OPERATOR,
  "POST /admin/agents/{address}/unsuspend": OPERATOR,
  "POST /missions/{id}/reports": "abuse reports come from people on the board (docs/moderation.md)",
  "GET /admin/reports": OPERATOR,
  "POST /admin/reports/{id}/resolve": OPERATOR,
  "POST /admin/reports/{id}/dismiss": OPERATOR,
  "GET /admin/posting-allowlist": OPERATOR,
  "PUT /admin/posting-allowlist/{address}": OPERATOR,
  "GET /admin/audit": OPERATOR,
  "GET /admin/payouts": OPERATOR,
  "POST /admin/payouts/{id}/retry": OPERATOR,
  "POST /admin/payouts/{id}/fail": OPERATOR,
  "POST /admin/payouts/{id}/convert": OPERATOR,
  "POST /admin/ledger/credit memo": OPERATOR,
  "POST /receipts/verify":
    "`oabp receipt verify` checks offline with the same procedure (packages/client/src/receipts.ts); this is the server-side convenience",
  "GET /feed.xml": BROWSER,
  "GET /missions.rss": BROWSER,
  "GET /feed.atom": BROWSER,
  "GET /webhooks": PAGING,
  "GET /webhooks/{id}/deliveries": PAGING,
  "GET /events": "SSE stream for dashboards; agents follow GET /agents/me/inbox or `oabp watch`",
  "POST /missions/{id}/escrow/authorization":
    "a signed EIP-3009 authorization the agent's own wallet code makes (docs/payments.md); the relay is the REST call",
  "GET /agents/me/inbox": "long-poll for agents' own loops (docs/events.md); `oabp watch` polls GET /missions",
  "POST /mcp": "the MCP transport itself (JSON-RPC envelope)",
  "POST /a2a": "the A2A binding itself (JSON-RPC envelope; docs/a2a.md)",
  "GET /skills format": MESH,
  "GET /skills/{id} format": MESH,
  "DELETE /skills/{id} format": MESH,
  "GET /admin/withdrawals": OPERATOR,
  "POST /admin/withdrawals/{id}/approve": OPERATOR,
  "POST /admin/withdrawals/{id}/reject": OPERATOR,
  "POST /ping": MACHINE,
  "POST /federation/report": MACHINE,
  "GET /federation/hubs": MACHINE,
  "POST /adp/adp.describe": MACHINE,
  "POST /adp/adp.advertise": MACHINE,
  "POST /adp/adp.discover": MACHINE,
  "GET /missions/{id}/candidates": "creator-side matching view, read over REST or on the board",
  "GET /agents/{id}/recommended-missions": "recommendation view, read over REST or on the board",
  "GET /missions/{id}/claims": PAGING,
  "GET /missions/{id}/amendments": PAGING,
  "GET /disputes": PAGING,
  "POST /disputes/{id}/resolve": OPERATOR,
  "GET /missions/{id}/questions limit": PAGING,
  "GET /missions/{id}/questions pinned": "filter for the board's pinned view; the tool lists the whole thread",
  "GET /missions/{id}/questions kind": "filter for the board's views; the tool lists the whole thread",
  "POST /missions/{id}/clarifications": "creator clarifications are posted on the board or over REST",
  "POST /missions/{id}/submissions/{sid}/messages": "private messages are read and written on the board or over REST",
  "GET /missions/{id}/submissions/{sid}/messages": PAGING,
  "GET /messages/inbox": "private messages are read and written on the board or over REST",
  "GET /messages/sent": "private messages are read and written on the board or over REST",
  "GET /transparency/payouts": BROWSER,
  "GET /transparency/payouts.atom": BROWSER,
};

function carriers(op: Op, field: string): string[] {
  const via: string[] = [];
  for (const t of TOOLS) {
    const props = (t.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
    if (MCP_ROUTES[t.name] === op.key && field in props) via.push(`mcp:${t.name}`);
  }
  const cli = CLI[op.key];
  if (cli?.fields.includes(field)) via.push(`cli:${cli.command}`);
  return via;
}

describe("every REST request field reaches agents by MCP or the CLI, or is REST-only with a reason", () => {
  it("knows the route of every MCP tool", () => {
    for (const t of TOOLS) {
      expect(MCP_ROUTES[t.name], `MCP_ROUTES lacks ${t.name}`).toBeDefined();
      expect(opByKey.has(MCP_ROUTES[t.name] ?? ""), `${t.name} → ${MCP_ROUTES[t.name]}`).toBe(true);
    }
    expect(Object.keys(MCP_ROUTES).sort()).toEqual(TOOLS.map((t) => t.name).sort());
  });

  it("has a way for every field", () => {
    const missing = OPS.flatMap((op) =>
      op.fields
        .filter((f) => carriers(op, f).length === 0 && !REST_ONLY[op.key] && !REST_ONLY[`${op.key} ${f}`])
        .map((f) => `${op.key} ${f}`),
    );
    expect(missing, "add an MCP argument, a CLI flag, or a REST_ONLY entry with the reason").toEqual([]);
  });

  it("lists nothing stale as REST-only (an existing field with no other way)", () => {
    const stale = Object.keys(REST_ONLY).flatMap((key) => {
      const op =
        opByKey.get(key) ??
        OPS.find((o) => key.startsWith(`${o.key} `) && o.fields.includes(key.slice(o.key.length + 1)));
      if (!op) return [`${key}: names no operation or field`];
      const fields = op.key === key ? op.fields : [key.slice(op.key.length + 1)];
      if (fields.length === 0) return [`${key}: the operation takes no fields`];
      return fields.filter((f) => carriers(op, f).length > 0).map((f) => `${key}: ${f} has a way now`);
    });
    expect(stale).toEqual([]);
  });

  it("the CLI's parser accepts every flag its request tables name", () => {
    const flags = Object.values(CLI_REQUESTS).flatMap(({ fields }) =>
      Object.values(fields as Record<string, string>).flatMap((v) => (v.startsWith("--") ? [v.slice(2)] : [])),
    );
    expect(flags.filter((f) => !STRING_FLAGS.includes(f) && !BOOL_FLAGS.includes(f))).toEqual([]);
  });

  it("the CLI's mission list takes every GET /missions filter", () => {
    const query = opByKey.get("GET /missions")?.fields ?? [];
    expect([...LIST_QUERY_FLAGS.map(snake), "limit"].sort()).toEqual([...query].sort());
  });
});
