import {
  BaseError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  LimitExceededRpcError,
  ResourceUnavailableRpcError,
  SocketClosedError,
  TimeoutError,
  decodeErrorResult,
  type Hex,
} from "viem";
import { missionEscrowAbi } from "./abi/mission-escrow";

// Error classification of the base rail's chain port (docs/base-rail.md "Outcomes, not outages"):
// a revert is an outcome of one payout, only a transport failure is an outage.

/**
 * A revert, found anywhere in viem's wrapping (ContractFunctionExecutionError,
 * EstimateGasExecutionError, CallExecutionError all wrap the node's answer): the contract's error
 * name, or "reverted" when the data does not decode. Null when `err` is not a revert.
 */
export function revertOf(err: unknown): string | null {
  if (!(err instanceof BaseError)) return null;
  const typed = err.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  if (typed?.data?.errorName) return typed.data.errorName;
  const data = findRevertData(err);
  if (data) return decodeEscrowError(data);
  if (typed || err.walk((e) => e instanceof ExecutionRevertedError)) return typed?.reason ?? "reverted";
  return null;
}

/** Transport failures only (no answer, timeout, 5xx, rate limit): the RPC is out, not the call wrong. */
export function isTransportError(err: unknown): boolean {
  if (!(err instanceof BaseError))
    return !(err instanceof Error) || /fetch failed|ECONNREFUSED|ECONNRESET|socket|network/i.test(err.message);
  return Boolean(
    err.walk(
      (e) =>
        e instanceof HttpRequestError ||
        e instanceof TimeoutError ||
        e instanceof SocketClosedError ||
        e instanceof LimitExceededRpcError ||
        e instanceof ResourceUnavailableRpcError,
    ),
  );
}

export function errorText(err: unknown): string {
  if (err instanceof BaseError) {
    const parts: string[] = [];
    err.walk((e) => {
      if (e instanceof Error) parts.push(e.message, (e as BaseError).details ?? "");
      return false;
    });
    return parts.join(" ");
  }
  return err instanceof Error ? err.message : String(err);
}

export function findRevertData(err: BaseError): Hex | undefined {
  let data: Hex | undefined;
  err.walk((e) => {
    const d = (e as { data?: unknown }).data;
    if (typeof d === "string" && /^0x[0-9a-fA-F]{8,}$/.test(d)) data = d as Hex;
    return false;
  });
  return data;
}

/** Revert data → the escrow's error name (or "reverted"). */
function decodeEscrowError(data: Hex): string {
  try {
    return decodeErrorResult({ abi: missionEscrowAbi, data }).errorName;
  } catch {
    return "reverted";
  }
}
