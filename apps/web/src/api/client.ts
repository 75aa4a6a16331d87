import {
  type ApiError,
  CSRF_COOKIE,
  CSRF_HEADER,
  codeMessage,
  type ErrorCode,
  englishMessage,
  type MessageRef,
  toMessageRef,
  userDataOutput,
} from '@emolens/contracts';
import type { z } from 'zod';

/**
 * A failed API call: the server's `{ code, message, fields }` with the HTTP status, and the same
 * messages as catalogue references (`ref`, `fieldRefs`) for `translateMessage`.
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** English text per field path, as the server wrote it. */
  readonly fields: Record<string, string> | undefined;
  readonly ref: MessageRef;
  /** The message of each field of `fields` that names one of this build's catalogue. */
  readonly fieldRefs: Record<string, MessageRef>;
  readonly retryAfter: number | undefined;

  constructor(status: number, body: Partial<ApiError>) {
    const code = body.code ?? (status >= 500 ? 'internal' : 'bad_request');
    const ref = toMessageRef({ key: body.key, params: body.params }) ?? codeMessage(code, body.retry_after);
    super(body.message ?? englishMessage(ref));
    this.status = status;
    this.code = code;
    this.ref = ref;
    this.fields = body.fields;
    this.fieldRefs = {};
    for (const [path, value] of Object.entries(body.field_keys ?? {})) {
      const field = toMessageRef(value);
      if (field) this.fieldRefs[path] = field;
    }
    this.retryAfter = body.retry_after;
  }

  /** The session is missing or the user may not do this: the cabinet sends them to log in. */
  get isAuthError(): boolean {
    return this.status === 401 || (this.status === 403 && this.code !== 'csrf_failed');
  }
}

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return undefined;
}

/** Spec section 7: requests wait until the browser tab is visible (at once where there is no document). */
export function whenVisible(): Promise<void> {
  if (typeof document === 'undefined' || document.visibilityState !== 'hidden') return Promise.resolve();
  return new Promise((resolve) => {
    const onChange = () => {
      if (document.visibilityState === 'hidden') return;
      document.removeEventListener('visibilitychange', onChange);
      resolve();
    };
    document.addEventListener('visibilitychange', onChange);
  });
}

/** The CSRF token to send as a header, fetched once when the cookie is missing. */
export async function csrfToken(): Promise<string> {
  const existing = readCookie(CSRF_COOKIE);
  if (existing) return existing;
  await fetch('/api/auth/csrf/', { credentials: 'same-origin' });
  return readCookie(CSRF_COOKIE) ?? '';
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Which API a call goes to: the cabinet's (`/api`: the session cookie, the CSRF header on writes) or the report
 * builder's (`/report_builder/api`: `Authorization: Token` with the session's `auth_token`, spec section 7).
 */
export type Api = 'cabinet' | 'builder';

/**
 * The report builder's token: the session's `auth_token` from the user data, fetched when missing or refused.
 * Calls made together share one fetch: a refusal of token `stale` fetches anew only if no other call already has.
 */
let builderToken: Promise<string> | undefined;
function builderTokenAfter(stale?: Promise<string>): Promise<string> {
  if (!builderToken || builderToken === stale) {
    const fetching = apiRequest('GET', '/users/user-data/', userDataOutput).then((user) => user.auth_token);
    builderToken = fetching;
    fetching.catch(() => {
      if (builderToken === fetching) builderToken = undefined;
    });
  }
  return builderToken;
}

/** Sends one request (JSON body); a network failure is "service unavailable". */
async function fetchOnce(
  url: string,
  method: Method,
  headers: Record<string, string>,
  body: unknown,
  cookies: boolean,
) {
  try {
    return await fetch(url, {
      method,
      headers,
      credentials: cookies ? 'same-origin' : 'omit',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiRequestError(0, { code: 'service_unavailable' });
  }
}

/**
 * Sends an API request. The report builder's answer 401 or 403 makes the SPA fetch a fresh token and try once
 * more (spec section 7).
 */
async function send(method: Method, path: string, body: unknown, accept?: string, api: Api = 'cabinet') {
  await whenVisible();
  const headers: Record<string, string> = accept ? { accept } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (api === 'cabinet') {
    if (method !== 'GET') headers[CSRF_HEADER] = await csrfToken();
    return fetchOnce(`/api${path}`, method, headers, body, true);
  }
  const attempt = (token: string) =>
    fetchOnce(`/report_builder/api${path}`, method, { ...headers, authorization: `Token ${token}` }, body, false);
  const used = builderTokenAfter();
  const first = await attempt(await used);
  if (first.status !== 401 && first.status !== 403) return first;
  return attempt(await builderTokenAfter(used));
}

/** Calls an API (the cabinet's unless told) and checks the answer against the operation's shared contract. */
export async function apiRequest<S extends z.ZodType>(
  method: Method,
  path: string,
  output: S,
  body?: unknown,
  api: Api = 'cabinet',
): Promise<z.infer<S>> {
  const response = await send(method, path, body, 'application/json', api);
  const payload: unknown = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiRequestError(response.status, payload as Partial<ApiError>);
  return output.parse(payload);
}

/** The file name a `content-disposition` header gives (RFC 8187 `filename*` first, then `filename`). */
export function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // a malformed escape: fall back to the plain name
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1];
}

/**
 * Calls the cabinet API for a file (an export) and saves it in the browser's downloads under the name the server
 * gives; a refusal throws like `apiRequest`.
 */
export async function apiDownload(
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  fallbackName: string,
  api: Api = 'cabinet',
) {
  const response = await send(method, path, body, undefined, api);
  if (!response.ok) {
    const payload: unknown = await response.json().catch(() => ({}));
    throw new ApiRequestError(response.status, payload as Partial<ApiError>);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = dispositionFilename(response.headers.get('content-disposition')) ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Sends a file as the request's body (its bytes as they are, not a form), telling `onProgress` the share sent
 * (0–1) as it goes — fetch cannot report an upload's progress, XMLHttpRequest can. Checked like `apiRequest`.
 */
export async function apiUpload<S extends z.ZodType>(
  method: 'PUT' | 'POST',
  path: string,
  output: S,
  file: Blob,
  onProgress?: (fraction: number) => void,
): Promise<z.infer<S>> {
  await whenVisible();
  const token = await csrfToken();
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `/api${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader(CSRF_HEADER, token);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiRequestError(0, { code: 'service_unavailable' }));
    xhr.send(file);
  });
  let payload: unknown = {};
  try {
    payload = JSON.parse(text);
  } catch {
    // not JSON: the status says enough
  }
  if (status < 200 || status >= 300) throw new ApiRequestError(status, payload as Partial<ApiError>);
  return output.parse(payload);
}
