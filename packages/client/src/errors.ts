// Typed errors carrying the server's error body ({error, message, request_id, details}; README
// "API overview"). `code` is the server's stable code, `reason` its `details.reason` when given.

export type ServerErrorCode =
  | "INVALID_PARAMETER"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "MISSION_NOT_OPEN"
  | "INSUFFICIENT_BALANCE"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNPROCESSABLE"
  | "RATE_LIMITED"
  | "INTERNAL_ERROR"
  | "SERVICE_UNAVAILABLE"
  | "TIMEOUT"
  | "ANONYMOUS_SUBMISSION_REJECTED";

export class OabpError extends Error {
  override readonly name = "OabpError";
  constructor(
    readonly status: number,
    /** The server's stable code (or `NETWORK_ERROR` / `BAD_RESPONSE` for client-side failures). */
    readonly code: ServerErrorCode | "NETWORK_ERROR" | "BAD_RESPONSE" | (string & {}),
    message: string,
    readonly details?: Record<string, unknown>,
    readonly requestId?: string,
  ) {
    super(message);
  }
  /** `details.reason`, the finer stable reason most codes carry. */
  get reason(): string | undefined {
    return typeof this.details?.reason === "string" ? this.details.reason : undefined;
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The error a failed HTTP answer stands for. */
export function errorFromBody(status: number, body: unknown): OabpError {
  if (isObj(body) && typeof body.error === "string") {
    return new OabpError(
      status,
      body.error,
      typeof body.message === "string" ? body.message : body.error,
      isObj(body.details) ? body.details : undefined,
      typeof body.request_id === "string" ? body.request_id : undefined,
    );
  }
  return new OabpError(status, "BAD_RESPONSE", `HTTP ${status}`);
}

/** CLI exit codes by failure kind (docs/first-mission.md "Exit codes"). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  invalid: 6,
  unavailable: 7,
  timeout: 8,
} as const;

export function exitCodeFor(e: unknown): number {
  if (!(e instanceof OabpError)) return EXIT.failed;
  if (e.code === "NETWORK_ERROR" || e.status >= 500) return e.code === "TIMEOUT" ? EXIT.timeout : EXIT.unavailable;
  if (e.status === 401 || e.status === 403) return EXIT.auth;
  if (e.status === 404) return EXIT.notFound;
  if (e.status === 409) return EXIT.conflict;
  if (e.status === 429) return EXIT.unavailable;
  if (e.status >= 400) return EXIT.invalid;
  return EXIT.failed;
}
