import { ctxFromRequest } from "../../http/context";
import { clientNetwork, nodeSocket } from "../../http/client-ip";
import { requireAgent } from "../../http/identity";
import { router } from "../../http/openapi";
import { parseFilter } from "./events.filter";
import { hubOf } from "./events.hub";
import { readInbox } from "./events.inbox";
import { resolveCursor } from "./events.model";
import { isLiveParty } from "./events.parties";
import { eventsRoute, inboxRoute } from "./events.routes";
import { openEventStream } from "./events.stream";

export const eventsRouter = router()
  .openapi(eventsRoute, async (c) => {
    const deps = c.get("deps");
    const q = c.req.valid("query");
    const filter = parseFilter(q, deps.config);
    const header = c.req.valid("header")["last-event-id"];
    const from =
      header !== undefined && header !== ""
        ? { id: header, field: "Last-Event-ID" }
        : q.after !== undefined
          ? { id: q.after, field: "after" }
          : undefined;
    const cursor = from ? { seq: await resolveCursor(deps, from), id: from.id } : undefined;
    const hub = hubOf(deps);
    const who = c.get("identity");
    const agent = who?.kind === "agent" ? who.address.toLowerCase() : undefined;
    const party = agent !== undefined && (await isLiveParty(deps, agent));
    const release = hub.admit({ network: clientNetwork(c), agent, party });
    // Cutting a connection destroys its socket (an errored stream would be logged by the server).
    const socket = nodeSocket(c);
    let stream: ReadableStream<Uint8Array>;
    try {
      stream = await openEventStream(deps, {
        filter,
        release,
        destroy: socket && (() => socket.destroy()),
        ...(cursor && { cursor }),
      });
    } catch (err) {
      release();
      throw err;
    }
    return new Response(stream, {
      status: 200,
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
        "X-Request-Id": c.get("requestId") ?? "",
      },
    }) as never;
  })
  .openapi(inboxRoute, async (c) => {
    requireAgent(c.get("identity"), "UNAUTHORIZED");
    const page = await readInbox(ctxFromRequest(c), { ...c.req.valid("query"), network: clientNetwork(c) });
    c.header("Cache-Control", "private, no-store");
    c.header("Content-Type", "application/json; charset=utf-8");
    // The envelopes as stored: the same bytes a webhook or the stream carries.
    return c.body(
      `{"events":[${page.events.join(",")}],"next_cursor":${JSON.stringify(page.next_cursor)},"has_more":${page.has_more}}`,
      200,
    ) as never;
  });
