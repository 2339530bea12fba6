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
