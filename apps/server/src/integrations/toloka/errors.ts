/** The Toloka client's errors (see client.ts). */
/** Codes the client itself produces (Toloka's own codes come through unchanged). */
export type TolokaClientErrorCode = 'NETWORK' | 'BAD_RESPONSE' | 'OPERATION_TIMEOUT' | 'OPERATION_FAILED';

/**
 * Any failure of a Toloka call. `status` is the HTTP status (0 when no answer came: network failure, timeout,
 * or a client-side wait that ran out); `code` is Toloka's error code, `HTTP_<status>` when the answer carried
 * no Toloka error body, or one of {@link TolokaClientErrorCode}.
 */
export class TolokaError extends Error {
  override readonly name = 'TolokaError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly payload: unknown;
  /** Delay the server asked for (Retry-After), when it did. */
  readonly retryAfterMs: number | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId?: string | null;
    payload?: unknown;
    retryAfterMs?: number | null;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.payload = init.payload;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }

  /** Plain fields, for structured logs. */
  toJSON() {
    return {
      name: this.name,
      status: this.status,
      code: this.code,
      message: this.message,
      requestId: this.requestId,
      payload: this.payload,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

/** True when the error says the token is not (or no longer) valid. */
export function isTolokaAuthError(error: unknown): boolean {
  return error instanceof TolokaError && (error.status === 401 || error.code === 'AUTHENTICATION_ERROR');
}
