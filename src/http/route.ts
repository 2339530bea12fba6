import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import { requireCaller } from "./identity";

// A feature's routes, each declared in one call (docs/architecture.md "A feature's files"):
// `const route = routes("reviews")`, then `route.get(path, summary, { request, responses })` is
// createRoute with the method, the path, the feature's tag and the summary. `shared` is what every
// route of the declarer has (the operator routes' admin check and bearer scheme).

type Declared = Omit<RouteConfig, "method" | "path" | "tags" | "summary">;

export function routes<S extends Declared = Record<never, never>>(tag: string, shared?: S) {
  const declare =
    <M extends RouteConfig["method"]>(method: M) =>
    <P extends string, C extends Declared>(path: P, summary: string, config: C) =>
      createRoute({ method, path, tags: [tag], summary, ...(shared as S), ...config });
  return { get: declare("get"), post: declare("post"), put: declare("put"), delete: declare("delete") };
}

/** Signed-in agents only: the caller check before the handler, and the bearer scheme in /openapi.json. */
export const signedIn = { middleware: [requireCaller("agent")], security: [{ bearer: [] as string[] }] };
