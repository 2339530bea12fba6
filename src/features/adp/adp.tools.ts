import { TOOLS } from "../mcp";

// The server card's `tools` (ADP §3.4) are its MCP tools (AIP-1 §7), projected the way ADP
// Appendix A.2 maps them: name, description, inputSchema → input_schema; plus output_schema,
// `streaming: false` (JSON answers only) and `idempotent` for the read-only tools.
//
// Projected from the MCP module's own TOOLS (src/features/mcp/mcp.tools.ts): one list, so the card
// can never advertise a tool the MCP endpoint does not serve.

export interface McpToolShape {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

export interface AdpTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
  streaming: boolean;
  idempotent: boolean;
}

/** ADP Appendix A.2 in reverse: an MCP tool as an ADP tool descriptor. */
function toAdpTool(t: McpToolShape): AdpTool {
  return {
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema,
    ...(t.outputSchema ? { output_schema: t.outputSchema } : {}),
    streaming: false,
    // Only reads are idempotent whatever the input; a write is retry-safe only with its key.
    idempotent: t.annotations?.readOnlyHint === true,
  };
}

export const serverTools = (): AdpTool[] => TOOLS.map(toAdpTool);
