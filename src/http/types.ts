import type { Deps } from "../deps";
import type { ReadView } from "../lib/context";
import type { Encoder } from "./compression";

export type Identity =
  /** mesh_shared_key: the Agent Mesh shared key of private-network mode (docs/neighbours.md "Private network"). */
  | { kind: "anonymous"; reason: "none" | "unbound_api_key" | "mesh_shared_key" }
  | { kind: "agent"; address: string; via: "session" | "registry" | "mesh" }
  | { kind: "admin" };

export interface AppEnv {
  Variables: {
    requestId: string;
    deps: Deps;
    identity: Identity;
    /** Set on public read routes by readAfter(); undefined elsewhere. */
    read: ReadView | undefined;
    /** Set by compression() on a GET accepting br or gzip; cleared by a handler that encoded its answer. */
    encoder: Encoder | undefined;
  };
}
