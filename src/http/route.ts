import { createRoute, type RouteConfig, type z } from "@hono/zod-openapi";
import { conditionalGet } from "./http-cache";
import { requireCaller } from "./identity";
import { declareReasons, type ErrorEntry, errors, EVERY_WRITE, jsonBody, jsonResponse } from "./openapi";
import type { ErrorCode } from "../lib/errors";

// A feature's routes, each declared with what sets it apart (docs/architecture.md "A feature's
// files"): `const route = routes("reviews")`, then
// `route.get(path, summary, { in: { params, query, body }, ok: [200, Schema, "description"], errors: [...] })`.
// The feature's tag is said once; `shared` is what every route of the declarer has (the operator
// routes' admin check and bearer scheme, a set of error codes: `routes("qa", withErrors(signedIn, …))`).
// The declarer builds the createRoute literal with the request and responses typed, so the handlers
// keep their types. `middleware`, `security` and `description` keep the order they are written in
// (it is the order of /openapi.json's keys). `ok: [204, "description"]` is an answer without a body.
// `errors` lists the codes beyond those every route has (errors() in ./openapi), `presetErrors` those
// a preset (signedIn, bearer, operatorOnly, withErrors) answers with; the shared ones and the route's
// own add up (a write adds EVERY_WRITE). An entry is a code (`"NOT_FOUND"`) or a code with the
// `details.reason`s the route answers it with (`["CONFLICT", "already_voted", "has_submissions"]`,
// each from the code's vocabulary in src/lib/error-reasons.ts; docs/api.md "Errors"). Their bodies
// come from the error handler, never a handler, so they stay out of the handler's response type. Without a spec, `route.get(path, summary)` is the head of a createRoute
// literal written out (a route the spec does not fit: an alias, a response built per format).

/** What a declarer's routes share, or a preset spread into one route's spec. */
type Preset = Pick<RouteConfig, "middleware" | "security"> & Pick<RouteSpec, "presetErrors">;
type Shared = Preset & Pick<RouteSpec, "errors">;
type Json<T extends z.ZodType> = ReturnType<typeof jsonResponse<T>>;

type Req = NonNullable<RouteConfig["request"]>;
type In = Pick<Req, "params" | "query" | "headers"> & { body?: z.ZodType };
/** What sets one route apart. `request` and `responses` add to what the short keys declare. */
export type RouteSpec = Partial<Pick<RouteConfig, "middleware" | "security" | "description">> & {
  in?: In;
  request?: Req;
  ok?: readonly [number, z.ZodType, string] | readonly [number, string];
  responses?: RouteConfig["responses"];
  errors?: readonly ErrorEntry[];
  presetErrors?: readonly ErrorEntry[];
};

type None = Record<never, never>;
type Picked<S, K extends string> = Pick<S, Extract<keyof S, K>>;
type RequestOf<I> = Picked<I, "params" | "query" | "headers"> &
  (I extends { body: infer B extends z.ZodType } ? ReturnType<typeof jsonBody<B>> : None);
type Request<S extends RouteSpec> = (S extends { in: infer I } ? RequestOf<I> : None) &
  (S extends { request: infer R } ? R : None);
type Ok<O> = O extends readonly [infer N extends number, infer T extends z.ZodType, string]
  ? { [K in N]: Json<T> }
  : O extends readonly [infer N extends number, string]
    ? { [K in N]: { description: string } }
    : None;
type Responses<S extends RouteSpec> = (S extends { ok: infer O } ? Ok<O> : None) &
  (S extends { responses: infer R } ? R : None);

type Declared<M extends RouteConfig["method"], P extends string, S extends RouteSpec, Sh extends Shared> = ReturnType<
  typeof createRoute<
    P,
    { method: M; path: P; tags: string[]; summary: string; request: Request<S>; responses: Responses<S> } & Picked<
      Sh & S,
      "middleware" | "security" | "description"
    >
  >
>;

function okResponse(ok: NonNullable<RouteSpec["ok"]>) {
  return ok.length === 2 ? { [ok[0]]: { description: ok[1] } } : { [ok[0]]: jsonResponse(ok[1], ok[2]) };
}

function build(
  head: { method: RouteConfig["method"]; path: string; tags: string[]; summary: string },
  shared: Shared,
  spec: RouteSpec,
) {
  const { errors: sharedCodes = [], presetErrors: sharedPreset = [], ...sharedRest } = shared;
  const { in: input = {}, request, ok, responses, errors: codes = [], presetErrors = [], ...rest } = spec;
  const { body, ...parameters } = input;
  const writes = head.method === "get" ? [] : EVERY_WRITE;
  const entries = [...writes, ...sharedPreset, ...sharedCodes, ...presetErrors, ...codes];
  const route = createRoute({
    ...head,
    ...sharedRest,
    ...rest,
    request: { ...parameters, ...(body && jsonBody(body)), ...request },
    responses: {
      ...(ok && okResponse(ok)),
      ...errors(...entries),
      ...responses,
    },
  });
  declareReasons(route, entries);
  return route;
}

/** What every verb on one path shares: its path parameters and the codes each answers (a 404). */
type Resource = { params?: Req["params"]; errors?: readonly ErrorEntry[] };
type At<B extends Resource, S extends RouteSpec> = Omit<S, "in"> & {
  in: (B extends { params: infer P } ? { params: P } : None) & (S extends { in: infer I } ? I : None);
};

export function routes<Sh extends Shared>(tag: string, shared?: Sh) {
  function declare<M extends RouteConfig["method"]>(method: M) {
    function one<P extends string>(path: P, summary: string): { method: M; path: P; tags: string[]; summary: string };
    function one<P extends string, const S extends RouteSpec>(path: P, summary: string, spec: S): Declared<M, P, S, Sh>;
    function one(path: string, summary: string, spec?: RouteSpec): unknown {
      const head = { method, path, tags: [tag], summary };
      return spec ? build(head, shared ?? {}, spec) : head;
    }
    return one;
  }
  const verbs = { get: declare("get"), post: declare("post"), put: declare("put"), delete: declare("delete") };
  /** The verbs on one path, its parameters and shared codes said once (`route.at(path, { params })`). */
  function at<P extends string, const B extends Resource>(path: P, resource: B) {
    function on<M extends RouteConfig["method"]>(method: M) {
      function verb<const S extends RouteSpec>(summary: string, spec: S): Declared<M, P, At<B, S>, Sh>;
      function verb(summary: string, spec: RouteSpec): unknown {
        const input = { ...(resource.params && { params: resource.params }), ...spec.in };
        const codes = [...(resource.errors ?? []), ...(spec.errors ?? [])];
        return build({ method, path, tags: [tag], summary }, shared ?? {}, { ...spec, in: input, errors: codes });
      }
      return verb;
    }
    return { get: on("get"), post: on("post"), put: on("put"), delete: on("delete") };
  }
  /** A path naming one thing by its parameters (a mission, a skill, a webhook): its verbs answer 404 without it. */
  const one = <P extends string, const Q extends Req["params"]>(path: P, params: Q) =>
    at(path, { params, errors: ["NOT_FOUND"] });
  return { ...verbs, at, one };
}

/**
 * The 200 of a GET answered by sendJsonValue (src/http/http-cache.ts): the `schema` body with a weak
 * ETag, and the 304 an If-None-Match that matches it gets.
 */
export const etagged = <T extends z.ZodType>(schema: T, what: string) => ({
  ...conditionalGet,
  ok: [200, schema, `${what} (weak ETag; If-None-Match → 304)`] as const,
});

const signedInOrBearer: readonly ErrorEntry[] = [
  ["UNAUTHORIZED", "none", "unbound_api_key", "mesh_shared_key"],
  "FORBIDDEN",
];

/** Signed-in agents only: the caller check before the handler, and the bearer scheme in /openapi.json. */
export const signedIn = {
  middleware: [requireCaller("agent")],
  security: [{ bearer: [] }],
  presetErrors: signedInOrBearer,
};

/** The bearer scheme, the handler or verb deciding who may act (401 without, 403 for the wrong caller). */
export const bearer = { security: [{ bearer: [] }], presetErrors: signedInOrBearer };

/** The operator's routes: the admin token's check before the handler, and the bearer scheme. */
export const operatorOnly = {
  middleware: [requireCaller("admin")],
  security: [{ bearer: [] }],
  presetErrors: signedInOrBearer,
};

/** `preset` answering `codes` besides, on every route it is given to: an error set declared once. */
export const withErrors = <P extends Preset>(preset: P, ...codes: ErrorEntry[]) => ({
  ...preset,
  presetErrors: [...(preset.presetErrors ?? []), ...codes],
});

/**
 * What a write to one open mission answers besides: 404 without the mission, 409 CONFLICT with its
 * state, 409 MISSION_NOT_OPEN past its deadline or once decided (claims, Q&A, votes, awards, …).
 */
export const OPEN_MISSION_WRITE = ["NOT_FOUND", "CONFLICT", "MISSION_NOT_OPEN"] as const satisfies ErrorCode[];
