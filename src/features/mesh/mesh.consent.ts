import type { Deps } from "../../deps";
import type { Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { takeToken } from "../../lib/token-bucket";

// A relay that asks first (docs/neighbours.md "Agent Mesh", "Consent"): the hub POSTs an
// invocation only to an origin that published its consent — a well-known file on the endpoint's
// own origin naming this hub — so a free mesh key cannot aim the hub at a third party's URL. And
// whatever the number of keys, one destination origin gets at most ORIGIN_BUDGET invocations per
// window from this hub (a Postgres token bucket: every instance shares it).

export const CONSENT_PATH = "/.well-known/agent-mesh-consent.json";
/** Invocations one destination origin receives from this hub, across every key and instance. */
export const ORIGIN_BUDGET = { quota: 60, windowSeconds: 60 };
/** How long an answer about an origin's consent is kept: a yes longer than a no. */
const CONSENT_TTL_MS = 10 * 60_000;
const REFUSAL_TTL_MS = 60_000;
const MAX_CACHED = 10_000;
const MAX_CONSENT_BYTES = 16 * 1024;

type Verdict = { ok: boolean; reason: string; until: number };
const caches = new WeakMap<Deps, Map<string, Promise<Verdict>>>();

/** The file's verdict: `{"hubs": [...]}` naming this hub's origin (or "*"). */
function readConsent(body: Buffer, hub: string): { ok: boolean; reason: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString("utf8"));
  } catch {
    return { ok: false, reason: "consent_not_json" };
  }
  const hubs = typeof doc === "object" && doc !== null ? (doc as { hubs?: unknown }).hubs : undefined;
  if (!Array.isArray(hubs)) return { ok: false, reason: "consent_without_hubs" };
  const named = hubs.some((h) => h === "*" || (typeof h === "string" && originOf(h) === hub));
  return named ? { ok: true, reason: "consented" } : { ok: false, reason: "hub_not_named" };
}

/** Time cap of one request to a provider, an invocation or its consent document (504 `TIMEOUT` beyond; the Mesh default). */
const MESH_INVOKE_TIMEOUT_MS = 30_000;
/** MESH_INVOKE_TIMEOUT_MS, or the bound a test set (Deps.limits). */
export const invokeTimeoutMs = (deps: Deps) => deps.limits?.meshInvokeTimeoutMs ?? MESH_INVOKE_TIMEOUT_MS;

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

async function askOrigin(ctx: Ctx, origin: string): Promise<Verdict> {
  const { deps, now } = ctx;
  const res = await deps.fetcher.fetch(`${origin}${CONSENT_PATH}`, {
    method: "GET",
    headers: { accept: "application/json" },
    timeoutMs: invokeTimeoutMs(deps),
    maxBytes: MAX_CONSENT_BYTES,
    redirect: "manual",
  });
  const hub = new URL(deps.config.publicUrl).origin;
  const v = !res.ok
    ? { ok: false, reason: `consent_unreachable:${res.reason}` }
    : res.status !== 200
      ? { ok: false, reason: `consent_status_${res.status}` }
      : readConsent(res.body, hub);
  return { ...v, until: now.getTime() + (v.ok ? CONSENT_TTL_MS : REFUSAL_TTL_MS) };
}

/** Throws 503 `provider_not_consented` unless the endpoint's origin consented to this hub. */
export async function assertConsent(
  ctx: Ctx,
  { endpoint, base }: { endpoint: string; base: Record<string, unknown> },
): Promise<string> {
  const origin = new URL(endpoint).origin;
  let cache = caches.get(ctx.deps);
  if (!cache) caches.set(ctx.deps, (cache = new Map()));
  let pending = cache.get(origin);
  const known = pending ? await pending : undefined;
  if (!known || known.until <= ctx.now.getTime()) {
    if (cache.size >= MAX_CACHED) cache.clear();
    pending = askOrigin(ctx, origin);
    cache.set(origin, pending);
  }
  const v = await pending!;
  if (!v.ok)
    throw new AppError("SERVICE_UNAVAILABLE", `the provider's origin has not consented to invocations from this hub`, {
      ...base,
      reason: "provider_not_consented",
      consent: v.reason,
      fix: `the provider publishes ${origin}${CONSENT_PATH} with {"hubs": ["${new URL(ctx.deps.config.publicUrl).origin}"]}`,
    });
  return origin;
}

/** One invocation of the destination origin's budget, or 503 `provider_origin_busy`. */
export async function takeOriginBudget(
  ctx: Ctx,
  { origin, base }: { origin: string; base: Record<string, unknown> },
): Promise<void> {
  const v = await takeToken(ctx.deps.database.db, `mesh:origin:${origin}`, ORIGIN_BUDGET, ctx.now);
  if (!v.ok)
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `the provider's origin takes at most ${ORIGIN_BUDGET.quota} invocations per ${ORIGIN_BUDGET.windowSeconds} s from this hub`,
      { ...base, reason: "provider_origin_busy", retry_after_seconds: v.retryAfterSeconds },
    );
}
