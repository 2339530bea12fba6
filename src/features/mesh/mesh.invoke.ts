import { parseJsonBounded } from "../../lib/json-text";
import type { Deps } from "../../deps";
import { assertNotSuspended, suspensionOf } from "../../db/suspension";
import { canonicalJson } from "../../lib/canonical-json";
import { dbOf, type Ctx } from "../../lib/context";
import { AppError, type ErrorCode, type ErrorDetails } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { SafeFetchResult } from "../../lib/safe-fetch";
import { returnToken, takeToken } from "../../lib/token-bucket";
import { validate } from "./mesh.json-schema";
import type { InvokeResponseWire } from "./mesh.schemas";
import { skillForInvoke } from "./mesh.service";
import { assertConsent, invokeTimeoutMs, takeOriginBudget } from "./mesh.consent";
import { createInvocationSlots, type InvocationSlots } from "./mesh.slots";
import { actingAgent, meshFetcher } from "./mesh.private";

// POST /skills/{id}/invoke (the Mesh document's "Invocation via Mesh"): the hub checks the caller,
// the payload against the skill's inputSchema, the rate limits (Postgres token buckets, so every
// instance on one database enforces one limit) and its in-flight slots, then POSTs a
// `skill_invocation` message to the provider through the SSRF-safe fetcher, with a time cap and
// size caps both ways. A success answers the Mesh "Skill Response Format"; every failure is our
// error body with the Mesh code and status (docs/neighbours.md "Agent Mesh").

/** Mesh "Standard Error Codes" a provider may answer with; anything else is INTERNAL_ERROR. */
const PROVIDER_CODES = new Set<ErrorCode>([
  "INVALID_PARAMETER",
  "UNAUTHORIZED",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "TIMEOUT",
  "SERVICE_UNAVAILABLE",
]);
/**
 * Invocations in flight per process (`total`), per caller, per provider agent; of the total,
 * `reserve` slots are kept for callers and providers with nothing in flight.
 */
const MESH_INFLIGHT = { total: 64, perCaller: 4, perProvider: 16, reserve: 16 };
/** Bytes of one invocation's payload (canonical JSON), forwarded to the provider. */
const MESH_INVOKE_MAX_PAYLOAD_BYTES = 64 * 1024;
/** Bytes of a provider's answer to one invocation. */
const MESH_INVOKE_MAX_RESPONSE_BYTES = 1024 * 1024;
/** How much of a provider's error message the hub repeats. */
const MAX_PROVIDER_MESSAGE = 500;

const slotsByDeps = new WeakMap<Deps, InvocationSlots>();
function slotsOf(deps: Deps): InvocationSlots {
  let s = slotsByDeps.get(deps);
  if (!s) {
    s = createInvocationSlots(MESH_INFLIGHT);
    slotsByDeps.set(deps, s);
  }
  return s;
}

export interface RateHeaders {
  policy: string;
  state: string;
}

type RatedSkill = { id: string; rateMaxCalls: number | null; ratePeriodMs: number | null };

/** The buckets one invocation takes a token from: the caller's over all skills, and the skill's own. */
function rateChecks(deps: Deps, caller: string, skill: RatedSkill) {
  const checks = [{ name: "mesh-invoke", key: `mesh:invoke:${caller}`, policy: deps.config.meshInvokeRate }];
  if (skill.rateMaxCalls !== null && skill.ratePeriodMs !== null)
    checks.push({
      name: "mesh-skill",
      key: `mesh:skill:${skill.id}:${caller}`,
      policy: { quota: skill.rateMaxCalls, windowSeconds: skill.ratePeriodMs / 1000 },
    });
  return checks;
}

/** Gives back the tokens of an invocation the provider never answered (or answered 503). */
async function refundRates(ctx: Ctx, caller: string, skill: RatedSkill): Promise<void> {
  const db = ctx.deps.database.db;
  for (const check of rateChecks(ctx.deps, caller, skill)) await returnToken(db, check.key, check.policy);
}

async function takeRates(ctx: Ctx, caller: string, skill: RatedSkill): Promise<RateHeaders> {
  const { deps, now } = ctx;
  const db = deps.database.db;
  const checks = rateChecks(deps, caller, skill);
  const policy: string[] = [];
  const state: string[] = [];
  for (const check of checks) {
    const v = await takeToken(db, check.key, check.policy, now);
    policy.push(`"${check.name}";q=${check.policy.quota};w=${check.policy.windowSeconds}`);
    state.push(`"${check.name}";r=${v.remaining};t=${v.resetSeconds}`);
    if (!v.ok)
      throw new AppError(
        "RATE_LIMITED",
        `rate limit ${check.name} (${check.policy.quota} per ${check.policy.windowSeconds} s) exceeded; retry after ${v.retryAfterSeconds} s`,
        { reason: "rate_limited", policy: check.name, retry_after_seconds: v.retryAfterSeconds, skill_id: skill.id },
      );
  }
  return { policy: policy.join(", "), state: state.join(", ") };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The provider's Mesh error object, trimmed to what the hub repeats. */
function providerError(body: unknown): { code: ErrorCode; message: string } | undefined {
  if (!isObject(body) || !isObject(body.error)) return undefined;
  const code = String(body.error.code ?? "");
  const message = typeof body.error.message === "string" ? body.error.message.slice(0, MAX_PROVIDER_MESSAGE) : "";
  return { code: PROVIDER_CODES.has(code as ErrorCode) ? (code as ErrorCode) : "INTERNAL_ERROR", message };
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseJsonBounded(body.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

type Skill = Awaited<ReturnType<typeof skillForInvoke>>;
/** The skill named in every error body of an invocation. */
type Base = { skill_id: string; skill_name: string; provider: string };
/** Throws the invocation's error: the skill, the invocation id and the details. */
type Fail = <C extends ErrorCode>(code: C, message: string, details: ErrorDetails<C>) => never;

export async function invokeSkill(
  ctx: Ctx,
  input: { skillId: string; from?: string | undefined; payload: unknown },
): Promise<{ body: InvokeResponseWire; rate: RateHeaders }> {
  const { deps } = ctx;
  const { caller, skill, payload, base } = await admitPayload(ctx, input);
  const endpoint = await providerEndpoint(ctx, skill, base);
  const rate = await takeRates(ctx, caller, skill);
  let call: Awaited<ReturnType<typeof postInvocation>> | undefined;
  try {
    // Then consent (mesh.consent.ts): nothing is relayed to an origin that did not ask for it, and
    // no origin gets more than its budget, whatever the number of keys. A private mesh's endpoints
    // are its operator's own (docs/neighbours.md "Private network").
    if (!deps.config.meshPrivateNetwork) {
      const origin = await assertConsent(ctx, { endpoint, base });
      await takeOriginBudget(ctx, { origin, base });
    }
    call = await postInvocation(ctx, { caller, skill, base, endpoint, payload });
    return { body: answerOf(ctx, skill, call, base), rate };
  } catch (err) {
    // A call the provider did not answer, or answered 503, leaves the rate budget as it was.
    const answered = call !== undefined && (call.res.ok || call.res.reason === "too_large");
    if (!answered || (err instanceof AppError && err.code === "SERVICE_UNAVAILABLE"))
      await refundRates(ctx, caller, skill);
    throw err;
  }
}

/** The Mesh Skill Response of a provider's answer, or the invocation's error. */
function answerOf(
  ctx: Ctx,
  skill: Skill,
  call: Awaited<ReturnType<typeof postInvocation>>,
  base: Base,
): InvokeResponseWire {
  const { deps } = ctx;
  const fail: Fail = (code, message, details) => {
    throw new AppError(code, message, { ...base, invocation_id: call.invocationId, ...details });
  };
  if (!call.res.ok) fetchFailed(deps, call.res, fail);
  const result = providerResult(call.res, fail);
  if (skill.outputSchema) {
    const problems = validate(skill.outputSchema, result);
    if (problems.length > 0)
      fail("INTERNAL_ERROR", "the provider's result does not match the skill's outputSchema", {
        reason: "invalid_output",
        problems,
      });
  }
  return {
    success: true,
    result,
    error: null,
    metadata: {
      skillName: skill.name,
      version: skill.version,
      processingTimeMs: call.processingTimeMs,
      timestamp: deps.clock.now().toISOString(),
      invocationId: call.invocationId,
      provider: skill.agentId,
    },
  };
}

/** The caller, the skill and the payload, checked against the size cap and the inputSchema. */
async function admitPayload(ctx: Ctx, input: { skillId: string; from?: string | undefined; payload: unknown }) {
  const { now } = ctx;
  const caller = await actingAgent(ctx, { claimed: input.from, field: "from" });
  const db = dbOf(ctx);
  await assertNotSuspended(db, caller, now);
  const skill = await skillForInvoke(db, input.skillId);
  const payload = input.payload === undefined ? null : input.payload;
  const payloadText = canonicalJson(payload);
  const maxPayload = MESH_INVOKE_MAX_PAYLOAD_BYTES;
  if (Buffer.byteLength(payloadText) > maxPayload)
    throw new AppError("PAYLOAD_TOO_LARGE", `payload exceeds ${maxPayload} bytes`, { limit_bytes: maxPayload });
  const base: Base = { skill_id: skill.id, skill_name: skill.name, provider: skill.agentId };
  if (skill.inputSchema) {
    const problems = validate(skill.inputSchema, payload);
    if (problems.length > 0)
      throw new AppError(
        "INVALID_PARAMETER",
        `payload does not match the skill's inputSchema: ${problems[0]!.path} ${problems[0]!.message}`,
        {
          ...base,
          reason: "invalid_input",
          problems,
        },
      );
  }
  return { caller, skill, payload, base };
}

/** Where the provider answers: its skill's endpoint or its own, and never a suspended provider. */
async function providerEndpoint(ctx: Ctx, skill: Skill, base: Base): Promise<string> {
  const endpoint = skill.endpoint ?? skill.agentEndpoint;
  if (!endpoint)
    throw new AppError("SERVICE_UNAVAILABLE", "the skill's provider has registered no endpoint", {
      ...base,
      reason: "no_endpoint",
    });
  if (await suspensionOf(dbOf(ctx), skill.agentId, ctx.now))
    throw new AppError("SERVICE_UNAVAILABLE", "the skill's provider is suspended", {
      ...base,
      reason: "provider_suspended",
    });
  return endpoint;
}

/** One in-flight slot, the Mesh "Skill Invocation Message" POSTed to the provider, the slot freed. */
async function postInvocation(
  ctx: Ctx,
  input: { caller: string; skill: Skill; base: Base; endpoint: string; payload: unknown },
): Promise<{ invocationId: string; res: SafeFetchResult; processingTimeMs: number }> {
  const { deps, now } = ctx;
  const { caller, skill } = input;
  const slot = slotsOf(deps).tryAcquire(caller, skill.agentId);
  if ("refused" in slot) {
    const code = slot.refused === "caller_busy" ? "RATE_LIMITED" : "SERVICE_UNAVAILABLE";
    throw new AppError(code, `too many invocations in flight (${slot.refused})`, {
      ...input.base,
      reason: slot.refused,
      retry_after_seconds: 1,
    });
  }
  const invocationId = newId("inv");
  // Mesh "Skill Invocation Message".
  const message = {
    id: invocationId,
    from_agent: caller,
    to_agent: skill.agentId,
    content: { type: "skill_invocation", skillName: skill.name, payload: input.payload },
    message_type: "skill_invocation",
    created_at: now.toISOString(),
  };
  const started = performance.now();
  let res: SafeFetchResult;
  try {
    res = await meshFetcher(deps).fetch(input.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-agent-mesh-from": caller,
        "x-agent-mesh-skill": skill.name,
        "x-agent-mesh-invocation": invocationId,
      },
      body: JSON.stringify(message),
      timeoutMs: invokeTimeoutMs(deps),
      maxBytes: MESH_INVOKE_MAX_RESPONSE_BYTES,
      // A redirect is the provider's answer, never followed (as webhook deliveries).
      redirect: "manual",
    });
  } finally {
    slot.release();
  }
  return { invocationId, res, processingTimeMs: Math.round(performance.now() - started) };
}

/** No answer from the provider: a timeout, an answer over the cap, or unreachable. */
function fetchFailed(deps: Deps, res: Extract<SafeFetchResult, { ok: false }>, fail: Fail): never {
  if (res.reason === "timeout")
    fail("TIMEOUT", `the provider did not answer within ${invokeTimeoutMs(deps)} ms`, {
      reason: "provider_timeout",
    });
  if (res.reason === "too_large")
    fail("INTERNAL_ERROR", "the provider's answer exceeds the hub's response cap", {
      reason: "provider_response_too_large",
      limit_bytes: MESH_INVOKE_MAX_RESPONSE_BYTES,
    });
  fail("SERVICE_UNAVAILABLE", `the provider is unreachable (${res.reason})`, {
    reason: "provider_unreachable",
    fetch_failure: res.reason,
    ...(res.reason === "host_busy" ? { retry_after_seconds: 1 } : {}),
  });
}

/** The provider's result from its answer, or the provider's error. */
function providerResult(res: Extract<SafeFetchResult, { ok: true }>, fail: Fail): unknown {
  const parsed = parseJson(res.body);
  const body = parsed.ok ? parsed.value : undefined;
  if (res.status < 200 || res.status > 299)
    failedWith(body, { status: res.status, what: `the provider answered ${res.status}` }, fail);
  if (!parsed.ok)
    fail("INTERNAL_ERROR", "the provider's answer is not JSON", {
      reason: "provider_invalid_response",
      provider_status: res.status,
    });
  // A Mesh Skill Response envelope, or (a provider that answers its result bare) the result itself.
  const envelope = isObject(body) && typeof body.success === "boolean";
  if (envelope && body.success === false) failedWith(body, { status: res.status, what: "the skill failed" }, fail);
  return envelope ? ((body as Record<string, unknown>).result ?? null) : body;
}

/** The provider said it failed: its Mesh error code and message, repeated (trimmed). */
function failedWith(body: unknown, answer: { status: number; what: string }, fail: Fail): never {
  const pe = providerError(body);
  fail(pe?.code ?? "INTERNAL_ERROR", `${answer.what}${pe?.message ? `: ${pe.message}` : ""}`, {
    reason: "provider_error",
    provider_status: answer.status,
    ...(pe ? { provider_error: pe } : {}),
  });
}
