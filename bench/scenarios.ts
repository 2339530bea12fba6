import type { RequestSpec } from "autocannon";
import { cfg } from "./run-config";
import { SEARCH_TERMS } from "./seed";

// The read scenarios of `npm run bench` (bench/README.md "What a run does", the table of keys):
// what each one asks, of which process.

export interface Scenario {
  key: string;
  name: string;
  base: string;
  requests: RequestSpec[];
  /** The process answering (its CPU per request is reported beside the rate). */
  pid?: number | undefined;
}

/** What most HTTP clients send (browsers, curl --compressed, fetch); autocannon sends none by itself. */
const ACCEPT_COMPRESSED = { "accept-encoding": "gzip, deflate, br" };

function randomPath(ids: string[], headers: Record<string, string> = {}): RequestSpec {
  return {
    method: "GET",
    headers,
    setupRequest: (req) => ({ ...req, path: `/missions/${ids[Math.floor(Math.random() * ids.length)]}` }),
  };
}

/** The HTML page of a random mission of the sample (the web board's twin of get_mission). */
function randomPage(ids: string[]): RequestSpec {
  return {
    method: "GET",
    headers: { accept: "text/html" },
    setupRequest: (req) => ({ ...req, path: `/m/${ids[Math.floor(Math.random() * ids.length)]}` }),
  };
}

/** tools/call get_mission on a random id of the sample: the MCP twin of the get_mission scenario. */
function mcpGetMission(ids: string[], session: string, headers: Record<string, string> = {}): RequestSpec {
  return {
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, "mcp-session-id": session, ...headers },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_mission", arguments: { mission_id: ids[Math.floor(Math.random() * ids.length)] } },
      }),
    }),
  };
}

// What a crawler walking filters or pages asks for — never the cached first page.
export const LIST_FILTERS = [
  "status=open&verification_type=creator_judges&limit=50",
  "verification_type=first_valid_match&limit=50",
  "status=resolved,voided&limit=50",
  "asset=USDC&reward_min=100000000&limit=50",
  "status=open&mission_type=freeform&limit=50",
];

function rotatingFilters(filters: readonly string[]): RequestSpec {
  let i = 0;
  return { method: "GET", setupRequest: (req) => ({ ...req, path: `/missions?${filters[i++ % filters.length]!}` }) };
}

/** A page of 50 starting right after a random seeded mission: deep keyset cursors everywhere in the set. */
function deepCursor(ids: string[]): RequestSpec {
  return {
    method: "GET",
    setupRequest: (req) => ({
      ...req,
      path: `/missions?limit=50&cursor=${Buffer.from(ids[Math.floor(Math.random() * ids.length)]!, "utf8").toString("base64url")}`,
    }),
  };
}

/** The bare stack's own 50-row page (bench/baseline.ts `/page`): the floor of every list page. */
function barePage(): RequestSpec {
  return { method: "GET", path: "/page" };
}

/** The bare page after a random sampled id: the floor of `deepCursor`'s keyset pages. */
function barePageDeep(ids: string[]): RequestSpec {
  return {
    method: "GET",
    setupRequest: (req) => ({ ...req, path: `/page?before=${ids[Math.floor(Math.random() * ids.length)]!}` }),
  };
}

function rotatingSearch(terms: readonly string[]): RequestSpec {
  let i = 0;
  return {
    method: "GET",
    setupRequest: (req) => ({
      ...req,
      path: `/missions?status=open&q=${encodeURIComponent(terms[i++ % terms.length]!)}`,
    }),
  };
}

// MCP: one session opened before the load (initialize + notifications/initialized); the scenario
// then repeats tools/call list_missions on it — the MCP twin of GET /missions?limit=50.

export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};
export const MCP_LIST_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "list_missions", arguments: { limit: 50 } },
});

// The read scenarios.

export interface Bases {
  server: string;
  baseline: string;
  uncached: string;
  /** The processes behind them, whose CPU per request each row reports. */
  pids: { server?: number | undefined; baseline?: number | undefined; uncached?: number | undefined };
}

export function readScenarios(b: Bases, ids: string[], mcpSession: string): Scenario[] {
  const pidOf = (base: string) =>
    base === b.server ? b.pids.server : base === b.baseline ? b.pids.baseline : b.pids.uncached;
  return scenarioList(b, ids, mcpSession).map((s) => ({ ...s, pid: pidOf(s.base) }));
}

function scenarioList(b: Bases, ids: string[], mcpSession: string): Scenario[] {
  const [serverBase, baselineBase, uncachedBase] = [b.server, b.baseline, b.uncached];
  const mcpList = (headers: Record<string, string> = {}): RequestSpec => ({
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, "mcp-session-id": mcpSession, ...headers },
    body: MCP_LIST_BODY,
  });
  return [
    {
      key: "baseline",
      name: "baseline GET /missions/{id}",
      base: baselineBase,
      requests: [randomPath(ids)],
    },
    { key: "get_mission", name: "server GET /missions/{id}", base: serverBase, requests: [randomPath(ids)] },
    {
      key: "list",
      name: "server GET /missions?limit=50",
      base: serverBase,
      requests: [{ method: "GET", path: "/missions?limit=50" }],
    },
    {
      key: "search",
      name: "server GET /missions?status=open&q=…",
      base: serverBase,
      requests: [rotatingSearch(SEARCH_TERMS)],
    },
    {
      key: "mcp_list",
      name: "server MCP tools/call list_missions",
      base: serverBase,
      requests: [mcpList()],
    },
    {
      key: "mcp_get",
      name: "server MCP tools/call get_mission",
      base: serverBase,
      requests: [mcpGetMission(ids, mcpSession)],
    },
    // The same reads as most clients ask for them (Accept-Encoding: gzip, deflate, br), so the
    // bench sees what compression costs (bench/README.md "What made anonymous reads dearer").
    {
      key: "get_mission_br",
      name: "server GET /missions/{id}, compressed",
      base: serverBase,
      requests: [randomPath(ids, ACCEPT_COMPRESSED)],
    },
    {
      key: "list_br",
      name: "server GET /missions?limit=50, compressed",
      base: serverBase,
      requests: [{ method: "GET", path: "/missions?limit=50", headers: ACCEPT_COMPRESSED }],
    },
    {
      key: "mcp_list_br",
      name: "server MCP list_missions, compressed",
      base: serverBase,
      requests: [mcpList(ACCEPT_COMPRESSED)],
    },
    {
      key: "mcp_get_br",
      name: "server MCP get_mission, compressed",
      base: serverBase,
      requests: [mcpGetMission(ids, mcpSession, ACCEPT_COMPRESSED)],
    },
    // The web board and a mission page, as ratios to the JSON routes they render.
    {
      key: "web_board",
      name: "server GET /?limit=50 (HTML board)",
      base: serverBase,
      requests: [{ method: "GET", path: "/?limit=50&status=any", headers: { accept: "text/html" } }],
    },
    {
      key: "web_mission",
      name: "server GET /m/{id} (HTML mission page)",
      base: serverBase,
      requests: [randomPage(ids)],
    },
    {
      key: "list_uncached",
      name: "uncached GET /missions?limit=50",
      base: uncachedBase,
      requests: [{ method: "GET", path: "/missions?limit=50" }],
    },
    {
      key: "search_uncached",
      name: "uncached GET /missions?status=open&q=…",
      base: uncachedBase,
      requests: [rotatingSearch(SEARCH_TERMS)],
    },
    {
      key: "filter_uncached",
      name: "uncached GET /missions?<filter>&limit=50",
      base: uncachedBase,
      requests: [rotatingFilters(LIST_FILTERS)],
    },
    {
      key: "deep_uncached",
      name: "uncached GET /missions?limit=50&cursor=<deep>",
      base: uncachedBase,
      requests: [deepCursor(ids)],
    },
    // The floors of the list rows: the bare stack's 50-row page, first and deep (bench/baseline.ts).
    { key: "page_floor", name: "baseline GET /page (bare 50-row page)", base: baselineBase, requests: [barePage()] },
    {
      key: "page_floor_deep",
      name: "baseline GET /page?before=<deep> (bare page)",
      base: baselineBase,
      requests: [barePageDeep(ids)],
    },
    // Each filter of LIST_FILTERS on its own: the goal holds on every filter, not on their mean.
    ...LIST_FILTERS.map((f, i) => ({
      key: `filter_uncached_${i + 1}`,
      name: `uncached GET /missions?${f}`,
      base: uncachedBase,
      requests: [{ method: "GET" as const, path: `/missions?${f}` }],
    })),
  ];
}

/** Which scenarios a run measures: the baseline and the floors always, the rest as BENCH_ONLY says. */
export function picked(key: string): boolean {
  return (
    key === "baseline" ||
    key.startsWith("page_floor") ||
    !cfg.only ||
    cfg.only.has(key) ||
    cfg.only.has(key.replace(/_\d+$/, ""))
  );
}
