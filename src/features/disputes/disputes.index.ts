import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { type From, handle, operation } from "../../http/operation";
import type { Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { crossServerFiler } from "./disputes.identity";
import { fileRoute, getRoute, listRoute, resolveRoute } from "./disputes.routes";
import {
  DisputeRateLimited,
  fileDispute,
  getDispute,
  listDisputes,
  NEVER_RESETS,
  type Filer,
} from "./disputes.service";
import { resolveDispute } from "./disputes.resolve";
import type { FileDisputeInput } from "./disputes.schemas";

export { sweepDisputes } from "./disputes.resolve";

/** §2.2: filed_by is the caller's own address, or "anonymous" (bad_spec only; one bucket per IP, §6.1). */
async function filerOf(ctx: Ctx, body: FileDisputeInput, { identity: who, ip }: From): Promise<Filer> {
  if (body.cross_server_identity) {
    // AIP-4 §7.2: an identity hosted on another hub, proven at filing (disputes.identity.ts).
    if (who.kind === "agent")
      throw new AppError("UNPROCESSABLE", "signed in here: file as yourself, without cross_server_identity", {
        reason: "cross_server_identity_unneeded",
      });
    return crossServerFiler(ctx, body);
  }
  if (body.filed_by === "anonymous") {
    if (body.dispute_type !== "bad_spec")
      throw new AppError("UNPROCESSABLE", "only bad_spec disputes may be filed anonymously (AIP-4 §2.2)", {
        reason: "anonymous_not_allowed",
      });
    // The bucket is the client's IP: a call without one (MCP) files as itself.
    if (!ip) throw new AppError("FORBIDDEN", "filed_by must be your own address (anonymous filing is REST only)");
    return { anonymousIp: ip() };
  }
  if (who.kind === "agent") {
    if (body.filed_by && body.filed_by.toLowerCase() !== who.address)
      throw new AppError("FORBIDDEN", 'filed_by must be your own address (or "anonymous" for bad_spec)');
    return { address: who.address };
  }
  throw new AppError("UNAUTHORIZED", 'sign in to file a dispute (bad_spec may be filed with filed_by "anonymous")');
}

// The operations REST and MCP share (src/http/operation.ts).
export const fileDisputeOp = operation({
  route: fileRoute,
  input: ({ json }, from) => ({ body: json, from }),
  verb: async (ctx, { body, from }) => fileDispute(ctx, { filer: await filerOf(ctx, body, from), dispute: body }),
});

export const getDisputeOp = operation({
  route: getRoute,
  input: ({ param }) => ({ id: param.id }),
  verb: getDispute,
});

export const disputesRouter = router()
  .openapi(
    fileRoute,
    handle(fileDisputeOp, {
      fail: (c, e) => {
        if (!(e instanceof DisputeRateLimited)) return undefined;
        // AIP-4 §6.1: exactly this 429 body (plus our message and request id).
        // A limit without a window (dup_claim per mission) never resets: no Retry-After.
        if (e.resetAt.getTime() !== NEVER_RESETS.getTime())
          c.header(
            "Retry-After",
            String(Math.max(1, Math.ceil((e.resetAt.getTime() - c.get("deps").clock.now().getTime()) / 1000))),
          );
        return c.json(
          {
            error: "rate_limited" as const,
            reset_at: e.resetAt.toISOString(),
            dispute_type: e.disputeType,
            message: e.message,
            request_id: c.get("requestId"),
          },
          429,
        );
      },
    }),
  )
  .openapi(listRoute, async (c) => c.json(await listDisputes(ctxFromRequest(c), c.req.valid("query")), 200))
  .openapi(getRoute, handle(getDisputeOp))
  // Anonymous callers are refused before validation (requireCaller on the route) and by the verb.
  .openapi(resolveRoute, async (c) =>
    c.json(await resolveDispute(ctxFromRequest(c), { id: c.req.valid("param").id, ...c.req.valid("json") }), 200),
  );
