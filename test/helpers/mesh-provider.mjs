// A Mesh skill provider for tests (docs/neighbours.md "Agent Mesh"): a plain node HTTP server on
// 127.0.0.2 (the address the test fetcher may reach), spawned as its own process. It prints
// {"port": N} once listening and records every skill_invocation message it receives.
//   POST /mesh/skills/echo  → Mesh Skill Response with the payload echoed
//   POST /mesh/skills/bare  → a bare JSON result (no envelope)
//   POST /mesh/skills/slow  → never answers (the hub's timeout decides)
//   POST /mesh/skills/boom  → 500 with a Mesh Error Response
//   POST /mesh/skills/busy  → 503 SERVICE_UNAVAILABLE (Mesh Error Response)
//   GET  /received          → what it received: [{path, from_header, message}]
//   GET  /.well-known/agent-mesh-consent.json → {"hubs": ["*"]}: it consents to any hub's relay
import { createServer } from "node:http";

const received = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    if (req.method === "GET" && req.url === "/received") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(received));
    }
    if (req.method === "GET" && req.url === "/.well-known/agent-mesh-consent.json") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ hubs: ["*"] }));
    }
    let message = null;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      /* recorded as null */
    }
    received.push({ path: req.url, from_header: req.headers["x-agent-mesh-from"] ?? null, message });
    const json = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const skillName = message?.content?.skillName ?? null;
    switch (req.url) {
      case "/mesh/skills/echo":
        return json(200, {
          success: true,
          result: { echo: message?.content?.payload ?? null, from: req.headers["x-agent-mesh-from"] ?? null },
          error: null,
          metadata: { skillName, version: "1.0.0", timestamp: new Date().toISOString() },
        });
      case "/mesh/skills/bare":
        return json(200, { answer: 42 });
      case "/mesh/skills/slow":
        return; // never answers
      case "/mesh/skills/boom":
        return json(500, {
          success: false,
          result: null,
          error: { code: "INTERNAL_ERROR", message: "the search index is on fire", details: {} },
          metadata: { skillName, timestamp: new Date().toISOString() },
        });
      case "/mesh/skills/busy":
        return json(503, {
          success: false,
          result: null,
          error: { code: "SERVICE_UNAVAILABLE", message: "warming up", details: {} },
          metadata: { skillName, timestamp: new Date().toISOString() },
        });
      default:
        return json(404, { success: false, result: null, error: { code: "SKILL_NOT_FOUND", message: req.url } });
    }
  });
});
server.listen(0, "127.0.0.2", () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + "\n");
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
