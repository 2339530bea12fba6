import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { AGENT_PROTOCOL } from "./middleware";

// `/health` answers from a path no request body can delay (docs/operations.md "Probes"): the
// node server's request listener answers it before the app sees the request — before the
// in-flight byte caps, identity, rate limits and the body reader, which a burst of large
// submissions keeps busy — with the same body the app's own route gives. `/ready` still goes
// through the app (it asks the database).

const HEALTH_PATHS = new Set(["/health", "/api/health"]);
const BODY = '{"status":"ok"}';

/** Whether a request is a health probe: GET or HEAD of /health or /api/health, any query. */
export function isHealthProbe(method: string | undefined, url: string | undefined): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const q = (url ?? "").indexOf("?");
  return HEALTH_PATHS.has(q === -1 ? (url ?? "") : (url ?? "").slice(0, q));
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Puts the health answer in front of the server's request listeners (the app's). */
export function answerHealthFirst(server: Server): void {
  const listeners = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!isHealthProbe(req.method, req.url)) {
      for (const l of listeners) l.call(server, req, res);
      return;
    }
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": String(Buffer.byteLength(BODY)),
      "cache-control": "no-store",
      "x-agent-protocol": AGENT_PROTOCOL,
    });
    res.end(req.method === "HEAD" ? undefined : BODY);
  });
}
