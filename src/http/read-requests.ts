// Which requests are reads (docs/abuse-edge.md "Read limits"): GET and HEAD, and the POSTs that
// only ask — ADP's describe and discover (§4.1, §4.3) carry their query as a JSON body because the
// protocol says so, write nothing, and cost what a list costs. They take the read limits (tokens
// and reads in flight per caller), not the write bucket, and answer no read-after token.

const READ_METHODS = new Set(["GET", "HEAD"]);
const READ_POSTS = new Set(
  ["/adp/adp.describe", "/adp/adp.discover"].flatMap((p) => [p, `/api${p}`]), // adp.server-card.ts ADP_METHODS
);

export function isReadRequest(method: string, path: string): boolean {
  return READ_METHODS.has(method) || (method === "POST" && READ_POSTS.has(path));
}

const INBOX_PATHS = new Set(["/agents/me/inbox", "/api/agents/me/inbox"]);

/**
 * A `GET /agents/me/inbox` that asks to wait (`wait` > 0): a long poll. It holds one of the
 * long-lived connection slots of its agent and network (with `GET /events` streams and MCP
 * streams, docs/events.md "Connection slots") for its whole life instead of a share of the
 * caller's running reads, so waiting never blocks the same agent's other reads
 * (docs/abuse-edge.md "Read limits").
 */
export function isLongPoll(method: string, path: string, wait: string | undefined): boolean {
  return method === "GET" && INBOX_PATHS.has(path) && Number(wait) > 0;
}
