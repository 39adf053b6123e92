/**
 * The sandbox's error type and error body. The spec leaves the error body "not shown"; by default
 * the sandbox answers every error with `{"error": {"code": "...", "message": "..."}}` (see
 * docs/design.md, "Sandbox"), and with the `errorBody` personality in another shape (errorBodies.ts). The
 * client must not depend on any one shape, so the default is deliberately the sandbox's own.
 */

/** Error codes the sandbox uses in its error bodies. */
export type ErrorCode =
  | "invalid_request"
  | "unauthorized"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "unsupported_media_type"
  | "payload_too_large"
  | "rate_limited"
  | "injected_fault"
  | "internal_error";

/** The JSON body of every error response of the sandbox. */
export interface ErrorBody {
  error: { code: string; message: string };
}

/**
 * An error that becomes an HTTP error response. Thrown by request handlers; the server turns it
 * into a reply with {@link ApiError.status} and an {@link ErrorBody} (or the body of the
 * sandbox's `errorBody` personality).
 *
 * @example
 * throw new ApiError(404, "not_found", "template tpl-9 does not exist");
 */
export class ApiError extends Error {
  /**
   * @param status HTTP status of the response.
   * @param code Machine-readable code placed in the body.
   * @param message Human-readable message; names the field that is wrong where there is one.
   * @param headers Extra response headers, e.g. `Allow` for a 405 or `Retry-After` for a 429.
   */
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** A 400 `invalid_request` error: the request is malformed; the message names the field. */
export function invalidRequest(message: string): ApiError {
  return new ApiError(400, "invalid_request", message);
}

/** A 404 `not_found` error. */
export function notFound(message: string): ApiError {
  return new ApiError(404, "not_found", message);
}
