import type { RouteConfig } from "@hono/zod-openapi";
import { requireCaller } from "./identity";

// A feature's routes, each declared with what sets it apart (docs/architecture.md "A feature's
// files"): `const route = routes("reviews")`, then
// `createRoute({ ...route.get(path, summary), request, responses })`. The feature's tag is said
// once; `shared` is what every route of the declarer has (the operator routes' admin check and
// bearer scheme). The route object stays a createRoute literal, so its request and responses keep
// their types for the handlers.

type Shared = Pick<RouteConfig, "middleware" | "security">;

export function routes<S extends Shared>(tag: string, shared?: S) {
  const declare =
    <M extends RouteConfig["method"]>(method: M) =>
    <P extends string>(path: P, summary: string) => ({ method, path, tags: [tag], summary, ...shared });
  return { get: declare("get"), post: declare("post"), put: declare("put"), delete: declare("delete") };
}

/** Signed-in agents only: the caller check before the handler, and the bearer scheme in /openapi.json. */
export const signedIn = { middleware: [requireCaller("agent")], security: [{ bearer: [] }] };
