/**
 * One catalogue of error codes. The API answers `{ code, message, fields? }`; the web app shows the
 * message for `code` in the user's language (locale key `errors.<code>`), the English `message`
 * being the fallback.
 */
export const ERROR_CODES = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  unknown_fields: 400,
  invalid_text: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  csrf_failed: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid_state: 409,
  media_in_use: 409,
  launch_incomplete: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  too_many_login_attempts: 429,
  internal: 500,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  bad_request: 'The request is not valid.',
  validation_failed: 'Fill in the required fields',
  invalid_json: 'The request body is not valid JSON.',
  unknown_fields: 'The request contains unknown fields.',
  invalid_text: 'The text contains characters that are not allowed. Remove them and try again.',
  unauthorized: 'Authentication required.',
  invalid_credentials: 'Wrong username or password.',
  csrf_failed: 'CSRF check failed. Reload the page and try again.',
  forbidden: 'You do not have permission to do this.',
  not_found: 'Not found.',
  conflict: 'Someone else changed this in the meantime. Reload to see their changes.',
  invalid_state: 'This cannot be done in the current status.',
  media_in_use: 'The file is used by a shelf or a task: choose another image there first.',
  launch_incomplete: 'Not enough data to launch',
  payload_too_large: 'The request is too large.',
  unsupported_media_type: 'Unsupported content type.',
  too_many_requests: 'Too many requests. Try again later.',
  too_many_login_attempts: 'Too many login attempts. Try again later.',
  internal: 'Something went wrong...',
  service_unavailable: 'The service is restarting. Try again in a moment.',
};

export interface ApiError {
  code: ErrorCode;
  message: string;
  /** Field path (dot-joined) to message. */
  fields?: Record<string, string>;
  /** Seconds to wait, for 429 answers. */
  retry_after?: number;
}
