import { createRoute, type RouteConfig, type z } from "@hono/zod-openapi";
import type { ErrorCode } from "../lib/errors";
import { requireCaller } from "./identity";
import { errors, jsonBody, jsonResponse } from "./openapi";

// A feature's routes, each declared with what sets it apart (docs/architecture.md "A feature's
// files"): `const route = routes("reviews")`, then
// `route.get(path, summary, { in: { params, query, body }, ok: [200, Schema, "description"], errors: [...] })`.
// The feature's tag is said once; `shared` is what every route of the declarer has (the operator
// routes' admin check and bearer scheme). The declarer builds the createRoute literal with the
// request and responses typed, so the handlers keep their types. `middleware`, `security` and
// `description` keep the order they are written in (it is the order of /openapi.json's keys).
// `errors` lists the codes beyond those every route has (errors() in ./openapi), `authErrors` those
// an auth preset (signedIn, bearer, operatorOnly) answers with; their bodies come from the error
// handler, never a handler, so they stay out of the handler's response type. Without a spec,
// `route.get(path, summary)` is the head of a createRoute literal written out (a route the spec
// does not fit: an alias, a response built per format).

type Shared = Pick<RouteConfig, "middleware" | "security"> & Pick<RouteSpec, "authErrors">;
type Json<T extends z.ZodType> = ReturnType<typeof jsonResponse<T>>;

type Req = NonNullable<RouteConfig["request"]>;
type In = Pick<Req, "params" | "query" | "headers"> & { body?: z.ZodType };
/** What sets one route apart. `request` and `responses` add to what the short keys declare. */
export type RouteSpec = Partial<Pick<RouteConfig, "middleware" | "security" | "description">> & {
  in?: In;
  request?: Req;
  ok?: readonly [number, z.ZodType, string];
  responses?: RouteConfig["responses"];
  errors?: readonly ErrorCode[];
  authErrors?: readonly ErrorCode[];
};

type None = Record<never, never>;
type Picked<S, K extends string> = Pick<S, Extract<keyof S, K>>;
type RequestOf<I> = Picked<I, "params" | "query" | "headers"> &
  (I extends { body: infer B extends z.ZodType } ? ReturnType<typeof jsonBody<B>> : None);
type Request<S extends RouteSpec> = (S extends { in: infer I } ? RequestOf<I> : None) &
  (S extends { request: infer R } ? R : None);
type Responses<S extends RouteSpec> = (S extends {
  ok: readonly [infer N extends number, infer T extends z.ZodType, string];
}
  ? { [K in N]: Json<T> }
  : None) &
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

function build(
  head: { method: RouteConfig["method"]; path: string; tags: string[]; summary: string },
  spec: RouteSpec,
) {
  const { in: input = {}, request, ok, responses, errors: codes = [], authErrors = [], ...rest } = spec;
  const { body, ...parameters } = input;
  return createRoute({
    ...head,
    ...rest,
    request: { ...parameters, ...(body && jsonBody(body)), ...request },
    responses: {
      ...(ok && { [ok[0]]: jsonResponse(ok[1], ok[2]) }),
      ...responses,
      ...errors(...authErrors, ...codes),
    },
  });
}

export function routes<Sh extends Shared>(tag: string, shared?: Sh) {
  function declare<M extends RouteConfig["method"]>(method: M) {
    function one<P extends string>(path: P, summary: string): { method: M; path: P; tags: string[]; summary: string };
    function one<P extends string, const S extends RouteSpec>(path: P, summary: string, spec: S): Declared<M, P, S, Sh>;
    function one(path: string, summary: string, spec?: RouteSpec): unknown {
      const head = { method, path, tags: [tag], summary };
      return spec ? build(head, { ...shared, ...spec }) : head;
    }
    return one;
  }
  return { get: declare("get"), post: declare("post"), put: declare("put"), delete: declare("delete") };
}

const signedInOrBearer: readonly ErrorCode[] = ["UNAUTHORIZED", "FORBIDDEN"];

/** Signed-in agents only: the caller check before the handler, and the bearer scheme in /openapi.json. */
export const signedIn = {
  middleware: [requireCaller("agent")],
  security: [{ bearer: [] }],
  authErrors: signedInOrBearer,
};

/** The bearer scheme, the handler or verb deciding who may act (401 without, 403 for the wrong caller). */
export const bearer = { security: [{ bearer: [] }], authErrors: signedInOrBearer };

/** The operator's routes: the admin token's check before the handler, and the bearer scheme. */
export const operatorOnly = {
  middleware: [requireCaller("admin")],
  security: [{ bearer: [] }],
  authErrors: signedInOrBearer,
};
