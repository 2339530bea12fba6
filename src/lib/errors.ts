import type { Reason } from "./error-reasons";

// The closed list of error codes (docs/design.md "Wire conventions"; AIP-1 §1.4 fixes
// ANONYMOUS_SUBMISSION_REJECTED). Every error body on the wire is
// {"error": CODE, "message": "...", "request_id": "req_...", "details": {...}}.
export const ERROR_STATUS = {
  INVALID_PARAMETER: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ANONYMOUS_SUBMISSION_REJECTED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  MISSION_NOT_OPEN: 409,
  INSUFFICIENT_BALANCE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** A refusal's `details`: its `reason`, when it has one, is in the code's vocabulary (./error-reasons.ts). */
export type ErrorDetails<C extends ErrorCode = ErrorCode> = { reason?: Reason<C> } & Record<string, unknown>;

export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly details: ErrorDetails<C> | undefined;
  constructor(code: C, message: string, details?: ErrorDetails<C>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: Record<string, unknown>) {
  return details === undefined
    ? { error: code, message, request_id: requestId }
    : { error: code, message, request_id: requestId, details };
}
