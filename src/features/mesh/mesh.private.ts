import { isIP } from "node:net";
import { eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { meshAgents } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { requireCaller } from "../../http/identity";
import type { AppEnv } from "../../http/types";
import { parseAgentId } from "../../lib/agent-id";
import { dbOf, type Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import type { Reason } from "../../lib/error-reasons";
import { checkPublicAddress, isLocalhostName } from "../../lib/ip-policy";
import { createSafeFetcher, type SafeFetcher } from "../../lib/safe-fetch";
import { userAgent } from "../../lib/user-agent";
import { checkWebhookUrl } from "../webhooks";

// Agent Mesh private-network mode (docs/neighbours.md "Private network"): an operator running a
// mesh on a LAN sets OABP_MESH_PRIVATE_NETWORK=true (refused at start on a public server) and
// OABP_MESH_SHARED_KEY. Then the Mesh document's shared X-API-Key acts as the agent its request
// names, `http://` and private endpoints are callable, and the Mesh routes speak its dialect.
// Off (the default), each of these is refused with a body that names the setting.

/** The setting every refusal names. */
const PRIVATE_SETTING = "OABP_MESH_PRIVATE_NETWORK";
const PRIVATE_FIX = `an operator running a mesh on a LAN sets ${PRIVATE_SETTING}=true and OABP_MESH_SHARED_KEY (docs/neighbours.md "Private network")`;

/** Address ranges of a LAN: RFC 1918, CGNAT (RFC 6598, overlay networks) and IPv6 ULA. */
const LAN_RANGES = new Set(["private", "carrierGradeNat", "uniqueLocal"]);

/**
 * Route middleware of the Mesh write routes: a signed-in agent, or the shared key in private
 * mode; a key the hub does not know is 401 naming the setting (the Mesh document's shared key
 * on a public server).
 */
export const meshCaller: MiddlewareHandler<AppEnv> = async (c, next) => {
  const who = c.get("identity");
  if (who.kind === "anonymous" && who.reason === "mesh_shared_key") return next();
  if (who.kind === "anonymous" && who.reason === "unbound_api_key") throw unknownKey();
  return requireCaller("agent")(c, next);
};

/** 401 for an X-API-Key that is neither a key this hub issued nor a bound registry key. */
export function unknownKey(): AppError {
  return new AppError(
    "UNAUTHORIZED",
    `X-API-Key is not a key this hub issued or a bound registry key; a mesh's shared key is accepted only in private-network mode (${PRIVATE_SETTING})`,
    { reason: "unknown_api_key", setting: PRIVATE_SETTING, fix: PRIVATE_FIX },
  );
}

/**
 * The agent a Mesh request acts as. Signed in: the caller (a `claimed` id must be its own).
 * The shared key: the agent the request names in `field` (`agentId`, `from`), which must have registered.
 */
export async function actingAgent(
  ctx: Ctx,
  { claimed, field }: { claimed: string | undefined; field: string },
): Promise<string> {
  const caller = ctx.caller;
  if (caller.kind === "anonymous" && caller.reason === "unbound_api_key") throw unknownKey();
  if (caller.kind === "anonymous" && caller.reason === "mesh_shared_key") {
    if (claimed === undefined)
      throw new AppError("INVALID_PARAMETER", `${field} is required with the mesh's shared key`, {
        field,
        reason: "agent_id_required",
      });
    const agentId = parseAgentId(claimed);
    const [row] = await dbOf(ctx)
      .select({ id: meshAgents.agentId })
      .from(meshAgents)
      .where(eq(meshAgents.agentId, agentId));
    if (!row)
      throw new AppError("INVALID_PARAMETER", `${field} names no agent registered with this mesh`, {
        field,
        reason: "agent_not_registered",
      });
    return agentId;
  }
  if (caller.kind !== "agent") throw new AppError("UNAUTHORIZED", "an agent identity is required");
  if (claimed !== undefined && parseAgentId(claimed) !== caller.address)
    throw new AppError("FORBIDDEN", `${field} must be your own id`, { reason: "not_self", field });
  return caller.address;
}

/** Whether `ip` is on a LAN (or an address the server's own fetcher may reach). */
const lanAddress = (base: SafeFetcher) => (ip: string, port: number) => {
  const v = checkPublicAddress(ip);
  return (!v.ok && LAN_RANGES.has(v.range)) || base.checkAddress(ip, port).ok;
};

/**
 * An endpoint the hub may call. Public server: the webhook rule (https, public), and a refusal
 * that names the setting. Private mode: http or https to any name but localhost, or a LAN literal.
 */
export function checkMeshEndpoint(
  deps: Deps,
  { url: raw, field }: { url: string | undefined; field: string },
): string | null {
  if (raw === undefined) return null;
  if (deps.config.meshPrivateNetwork) return checkLanEndpoint(deps, raw, field);
  const v = checkWebhookUrl(raw, deps.fetcher);
  if (v.ok) return v.url;
  const lanOnly = v.reason === "https_required" || v.reason === "blocked_address";
  throw new AppError("INVALID_PARAMETER", `${field} is not an endpoint the hub may call (${v.reason})`, {
    field,
    reason: v.reason,
    ...(v.detail ? { detail: v.detail } : {}),
    ...(lanOnly ? { setting: PRIVATE_SETTING, fix: PRIVATE_FIX } : {}),
  });
}

function checkLanEndpoint(deps: Deps, raw: string, field: string): string {
  const refuse = (reason: Reason<"INVALID_PARAMETER">, detail?: string) =>
    new AppError("INVALID_PARAMETER", `${field} is not an endpoint the hub may call (${reason})`, {
      field,
      reason,
      ...(detail ? { detail } : {}),
    });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("invalid_url");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refuse("unsupported_scheme", url.protocol);
  if (url.username !== "" || url.password !== "") throw refuse("credentials_in_url");
  if (isLocalhostName(url.hostname)) throw refuse("blocked_address", "localhost");
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (isIP(host) !== 0 && !lanAddress(deps.fetcher)(host, port)) {
    const v = checkPublicAddress(host);
    if (!v.ok) throw refuse("blocked_address", v.range);
  }
  return url.href;
}

const lanFetchers = new WeakMap<Deps, SafeFetcher>();

/**
 * The fetcher of invocations: the server's own, or in private mode one that also reaches LAN
 * addresses (never loopback or link-local), with the same DNS, caps and connect-time checks.
 */
export function meshFetcher(deps: Deps): SafeFetcher {
  const c = deps.config;
  if (!c.meshPrivateNetwork) return deps.fetcher;
  let f = lanFetchers.get(deps);
  if (!f) {
    f = createSafeFetcher({
      userAgent: userAgent(c.publicUrl),
      dns: { servers: c.abuse.dnsServers },
      allowAddress: lanAddress(deps.fetcher),
      now: () => deps.clock.now().getTime(),
    });
    lanFetchers.set(deps, f);
  }
  return f;
}
