import type { Deps } from "../deps";

export type Identity =
  | { kind: "anonymous"; reason: "none" | "unbound_api_key" }
  | { kind: "agent"; address: string; via: "session" | "registry" }
  | { kind: "admin" };

export interface AppEnv {
  Variables: {
    requestId: string;
    deps: Deps;
    identity: Identity;
  };
}
