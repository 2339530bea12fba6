import type { MiddlewareHandler } from "hono";
import { AppError } from "../lib/errors";
import type { AppEnv, Identity } from "./types";

/** The caller's address, or the §1.4 rejection for anonymous callers. */
export function requireAgent(
  identity: Identity,
  anonymousCode: "ANONYMOUS_SUBMISSION_REJECTED" | "UNAUTHORIZED",
): string {
  if (identity.kind === "agent") return identity.address;
  if (identity.kind === "admin") throw new AppError("FORBIDDEN", "the admin token does not act as an agent");
  if (anonymousCode === "ANONYMOUS_SUBMISSION_REJECTED") {
    throw new AppError(
      "ANONYMOUS_SUBMISSION_REJECTED",
      "an identity claim is required: sign in with SIWE or use a registry-attested api_key (AIP-1 §1.4)",
      { reason: identity.reason },
    );
  }
  throw new AppError(
    "UNAUTHORIZED",
    "sign in with SIWE (POST /auth/nonce, POST /auth/siwe) or use a registry-attested api_key",
    { reason: identity.reason },
  );
}

export function requireAdmin(identity: Identity): void {
  if (identity.kind !== "admin")
    throw new AppError(identity.kind === "anonymous" ? "UNAUTHORIZED" : "FORBIDDEN", "admin token required");
}

/**
 * Route middleware (createRoute's `middleware`, which runs before the zod validators) for routes
 * that always need a caller: an anonymous request gets its 401 before its body is validated, so
 * anonymous + a bad body is 401, not 400 (test/security). Which caller may act is still the
 * handler's check (requireAgent), after validation as before — except on operator routes, where
 * anything but the admin token is refused here (401 anonymous, 403 an agent), so a handler that
 * forgets its own check still cannot act for an agent.
 */
export function requireCaller(who: "agent" | "admin" | "agent_or_admin"): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const identity = c.get("identity");
    if (who === "admin") requireAdmin(identity);
    if (identity.kind === "anonymous") {
      if (who === "agent_or_admin") throw new AppError("UNAUTHORIZED", "sign in, or use the admin token");
      requireAgent(identity, "UNAUTHORIZED");
    }
    await next();
  };
}
