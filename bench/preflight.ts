import { getJson } from "./harness";
import { cfg } from "./run-config";
import { LIST_FILTERS, MCP_HEADERS, MCP_LIST_BODY } from "./scenarios";
import { SEARCH_TERMS } from "./seed";

// Before any load: the MCP session the MCP scenarios use, and one request per scenario checked
// for the expected answer (bench/README.md "What a run does", step 3).

async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export async function openMcpSession(serverBase: string): Promise<string> {
  const init = await postJson(
    `${serverBase}/mcp`,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "oabp-bench", version: "1" } },
    }),
    MCP_HEADERS,
  );
  const session = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !session)
    throw new Error(`MCP initialize: ${init.status} ${JSON.stringify(init.body).slice(0, 300)}`);
  const done = await postJson(
    `${serverBase}/mcp`,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    { ...MCP_HEADERS, "mcp-session-id": session },
  );
  if (done.status !== 202) throw new Error(`MCP notifications/initialized: ${done.status}`);
  return session;
}

/** One request per scenario, checked for the expected shape. */
export async function preflight(
  serverBase: string,
  baselineBase: string,
  ids: string[],
  mcpSession: string,
): Promise<void> {
  const id = ids[0]!;
  const b = await getJson(`${baselineBase}/missions/${id}`);
  if (b.status !== 200 || (b.body as { id?: string }).id !== id)
    throw new Error(`baseline GET /missions/${id}: ${b.status} ${JSON.stringify(b.body).slice(0, 300)}`);
  const g = await getJson(`${serverBase}/missions/${id}`);
  if (g.status !== 200 || (g.body as { id?: string }).id !== id)
    throw new Error(`server GET /missions/${id}: ${g.status} ${JSON.stringify(g.body).slice(0, 300)}`);
  const l = await getJson(`${serverBase}/missions?limit=50`);
  const listed = (l.body as { missions?: unknown[] }).missions;
  if (l.status !== 200 || !Array.isArray(listed) || listed.length !== Math.min(50, cfg.missions)) {
    throw new Error(`server GET /missions?limit=50: ${l.status} ${JSON.stringify(l.body).slice(0, 300)}`);
  }
  // The MCP call must carry exactly the REST list (structuredContent), in a successful tool result.
  const m = await postJson(`${serverBase}/mcp`, MCP_LIST_BODY, { ...MCP_HEADERS, "mcp-session-id": mcpSession });
  const result = (m.body as { result?: { isError?: boolean; structuredContent?: unknown } }).result;
  if (
    m.status !== 200 ||
    result?.isError !== false ||
    JSON.stringify(result.structuredContent) !== JSON.stringify(l.body)
  ) {
    throw new Error(`server MCP tools/call list_missions: ${m.status} ${JSON.stringify(m.body).slice(0, 300)}`);
  }
  const mg = await postJson(
    `${serverBase}/mcp`,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get_mission", arguments: { mission_id: id } },
    }),
    { ...MCP_HEADERS, "mcp-session-id": mcpSession },
  );
  const one = (mg.body as { result?: { isError?: boolean; structuredContent?: unknown } }).result;
  if (mg.status !== 200 || one?.isError !== false || JSON.stringify(one.structuredContent) !== JSON.stringify(g.body)) {
    throw new Error(`server MCP tools/call get_mission: ${mg.status} ${JSON.stringify(mg.body).slice(0, 300)}`);
  }
  for (const t of SEARCH_TERMS) {
    const q = await getJson(`${serverBase}/missions?status=open&q=${encodeURIComponent(t)}`);
    const found = (q.body as { missions?: { status: string }[] }).missions;
    if (q.status !== 200 || !Array.isArray(found))
      throw new Error(`server search q=${t}: ${q.status} ${JSON.stringify(q.body).slice(0, 300)}`);
    if (found.some((m) => m.status !== "open"))
      throw new Error(`server search q=${t} returned a mission that is not open`);
  }
}

/**
 * The uncached server answers every filter with the same page as the cached one (links aside:
 * each server's public URL is its own port).
 */
export async function sameFilterPages(cached: string, uncached: string): Promise<void> {
  const portOf = (base: string) => new URL(base).port;
  for (const f of LIST_FILTERS) {
    const [a, b] = await Promise.all([getJson(`${cached}/missions?${f}`), getJson(`${uncached}/missions?${f}`)]);
    const [ta, tb] = [
      JSON.stringify(a.body).replaceAll(`:${portOf(cached)}/`, "/"),
      JSON.stringify(b.body).replaceAll(`:${portOf(uncached)}/`, "/"),
    ];
    if (a.status !== 200 || b.status !== 200 || ta !== tb) {
      let i = 0;
      while (i < ta.length && ta[i] === tb[i]) i++;
      throw new Error(
        `GET /missions?${f}: cached ${a.status}, uncached ${b.status}, bodies differ at ${ta.slice(i - 80, i + 40)} | ${tb.slice(i - 80, i + 40)}`,
      );
    }
  }
}
