import type { MessageKey, MessageRef } from './messages.ts';

/**
 * One catalogue of error codes, with the HTTP status of each. The English message of a code is part
 * of the message catalogue (messages.ts) as `errors.<code>`; the web app translates it by that key.
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

export const ERROR_MESSAGES = {
  bad_request: 'The request is not valid.',
  validation_failed: 'Fill in the required fields',
  invalid_json: 'The request could not be read. Reload the page and try again.',
  unknown_fields: 'The request contains unknown fields.',
  invalid_text: 'The text contains characters that are not allowed. Remove them and try again.',
  unauthorized: 'Please log in.',
  invalid_credentials: 'Wrong username or password.',
  csrf_failed: 'Security check failed. Reload the page and try again.',
  forbidden: 'You do not have permission to do this.',
  not_found: 'Not found.',
  conflict: 'Someone else changed this in the meantime. Reload to see their changes.',
  invalid_state: 'This cannot be done in the current status.',
  media_in_use: 'The file is used by a shelf or a task: choose another image there first.',
  launch_incomplete: 'Not enough data to launch',
  payload_too_large: 'The request is too large.',
  unsupported_media_type: 'Unsupported content type.',
  too_many_requests: 'Too many requests. Try again in {minutes} min.',
  too_many_login_attempts: 'Too many login attempts. Try again in {minutes} min.',
  internal: 'Something went wrong...',
  service_unavailable: 'The server is not reachable. Check your connection and try again.',
} as const satisfies Record<ErrorCode, string>;

/**
 * An error answer. `message` and `fields` are English text (for logs, scripts and older clients);
 * `key`/`params` and `field_keys` name the same messages in the catalogue, for the web app to show
 * in the user's language.
 */
export interface ApiError {
  code: ErrorCode;
  /** English text of the message `key`. */
  message: string;
  key: MessageKey;
  params?: MessageRef['params'];
  /** Field path (dot-joined) to English message. */
  fields?: Record<string, string>;
  /** Field path to the message of `fields` as a catalogue reference. */
  field_keys?: Record<string, MessageRef>;
  /** Seconds to wait, for 429 answers. */
  retry_after?: number;
}
