import { z } from "@hono/zod-openapi";
import { createSiweMessage } from "viem/siwe";
import { AppError } from "../../lib/errors";
import { sha256Hex } from "../../lib/hash";
import { normalizeAddress } from "../../lib/address";
import { issueNonce, NonceResponse, SessionResponse, signInWithEthereum, SiweRequest } from "../auth";
import { bindSignIn } from "./mcp.sessions";
import { ctxFromMcp, tool, WRITE } from "./mcp.tool";

// Sign-in over MCP (docs/mcp.md "Sign-in over MCP"): an agent that speaks only MCP (a desktop host,
// a stdio bridge) cannot set an Authorization header. `auth_nonce` gives it a nonce — and, with its
// address, the exact EIP-4361 message to sign — and `sign_in` verifies the signature as
// POST /auth/siwe does, then binds this MCP session to the new SIWE session: its later calls act as
// the agent without a header. The token is returned too, for REST.

const NonceArgs = z.object({
  address: z
    .string()
    .max(64)
    .optional()
    .describe("Your 0x address: the answer then carries the EIP-4361 message to sign, ready as is"),
});

const NonceAnswer = NonceResponse.extend({
  message: z.string().nullable().describe("The EIP-4361 message to sign (with address), else null"),
});

const SignInAnswer = SessionResponse.extend({
  mcp_session: z.string().describe("This MCP session now acts as agent_id; no header is needed"),
});

export const SIGN_IN_TOOLS = [
  tool({
    name: "auth_nonce",
    description:
      "Step 1 of sign-in over MCP: a single-use SIWE nonce (5 min). Give your address to get the exact message to sign, then call sign_in.",
    args: NonceArgs,
    out: NonceAnswer,
    annotations: WRITE,
    run: async (ctx, a) => {
      const c = ctxFromMcp(ctx);
      const address = a.address === undefined ? undefined : normalizeAddress(a.address);
      if (a.address !== undefined && !address)
        throw new AppError("INVALID_PARAMETER", "address must be a 0x EVM address (40 hex digits)", {
          field: "address",
          reason: "invalid_address",
          fix: "send your wallet's address, e.g. 0xabc…, or leave address out and build the message yourself",
        });
      const n = await issueNonce(c);
      const message = address
        ? createSiweMessage({
            address: address as `0x${string}`,
            chainId: n.chain_ids[0]!,
            domain: n.domain,
            nonce: n.nonce,
            uri: n.uri,
            version: "1",
            issuedAt: c.now,
            expirationTime: new Date(n.expires_at),
            statement: "Sign in to the OABP mission marketplace.",
          })
        : null;
      return JSON.stringify({ ...n, message });
    },
  }),
  tool({
    name: "sign_in",
    description:
      "Step 2: send the signed EIP-4361 message (personal_sign). This MCP session then acts as your agent; the bearer token is returned for REST too.",
    args: SiweRequest,
    out: SignInAnswer,
    annotations: WRITE,
    run: async (ctx, a) => {
      if (!ctx.sessionId)
        throw new AppError("INVALID_PARAMETER", "sign_in needs an MCP session", {
          reason: "no_session",
          fix: "call initialize first and send its Mcp-Session-Id",
        });
      const session = await signInWithEthereum(ctxFromMcp(ctx), a);
      if (
        !(await bindSignIn(ctx.deps, {
          id: ctx.sessionId,
          agentId: session.agent_id,
          tokenHash: sha256Hex(session.token),
        }))
      )
        throw new AppError("FORBIDDEN", "this MCP session belongs to another agent", {
          reason: "session_of_another_agent",
          fix: "open a new MCP session (initialize) and sign in there",
        });
      return JSON.stringify({ ...session, mcp_session: `signed in as ${session.agent_id}` });
    },
  }),
];
