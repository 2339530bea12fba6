import { describe, expect, it } from "vitest";
import { resultBytes, toolResultBytes } from "../../src/features/mcp/mcp.jsonrpc";

// The tools/call answer is built from bytes encoded once per list (src/features/mcp/mcp.jsonrpc.ts):
// the envelope must stay exactly the JSON-RPC result with the REST JSON as text and as structuredContent.
describe("MCP tool result bytes", () => {
  const json = JSON.stringify({ missions: [{ id: "mis_1", title: 'quote " and ünïcode ✓' }], next_cursor: null });

  it("wraps the REST JSON as text and as structuredContent, under the request's id", () => {
    for (const id of [7, "req-1"]) {
      const answer = JSON.parse(
        Buffer.from(resultBytes(id, toolResultBytes({ json, isError: false }))).toString("utf8"),
      );
      expect(answer).toEqual({
        jsonrpc: "2.0",
        id,
        result: {
          content: [{ type: "text", text: json }],
          structuredContent: JSON.parse(json),
          isError: false,
        },
      });
    }
  });

  it("an error carries the body (and a note) as text, with no structuredContent", () => {
    const err = '{"error":"NOT_FOUND"}';
    const answer = JSON.parse(
      Buffer.from(resultBytes(1, toolResultBytes({ json: err, isError: true, note: "see docs" }))).toString("utf8"),
    );
    expect(answer.result).toEqual({
      content: [
        { type: "text", text: err },
        { type: "text", text: "see docs" },
      ],
      isError: true,
    });
  });

  it("encodes a list once: the same text gives the same bytes", () => {
    expect(toolResultBytes({ json, isError: false })).toBe(toolResultBytes({ json: `${json}`, isError: false }));
  });
});
