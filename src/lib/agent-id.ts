import { normalizeAddress } from "./address";
import { AppError } from "./errors";

/** An agent id from a path or body: a 0x EVM address, checksummed (AIP-1 §1). */
export function parseAgentId(id: string): string {
  const a = normalizeAddress(id);
  if (!a) throw new AppError("INVALID_PARAMETER", "agent id must be a 0x EVM address", { field: "id" });
  return a;
}
