/**
 * The uploader's HTTP: one request function (fetch against an installation's address, or a test's in-process app)
 * and the cabinet's cookies (the login session and the CSRF cookie echoed in its header, as the web app does).
 */
import { CSRF_COOKIE, CSRF_HEADER } from '@emolens/contracts';

export interface HttpAnswer {
  status: number;
  text: string;
  /** The `Set-Cookie` lines. */
  cookies: string[];
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Path and query from the installation's root: `/r/links/…`, `/api/…`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

export type Http = (request: HttpRequest) => Promise<HttpAnswer>;

/** Requests to an installation at `base` (`http://host:port`). */
export function fetchHttp(base: string): Http {
  return async ({ method, path, headers, body }) => {
    const res = await fetch(new URL(path, base), { method, headers, body, redirect: 'manual' });
    return { status: res.status, text: await res.text(), cookies: res.headers.getSetCookie() };
  };
}

export class HttpError extends Error {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${what}: HTTP ${status} ${body.slice(0, 500)}`);
  }
}

/** A JSON call; throws `HttpError` on any status but the expected ones. */
export async function callJson<T>(
  http: Http,
  what: string,
  request: HttpRequest & { json?: unknown },
  expect: readonly number[] = [200, 201],
): Promise<T> {
  const { json, ...rest } = request;
  const answer = await http({
    ...rest,
    headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...rest.headers },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  if (!expect.includes(answer.status)) throw new HttpError(what, answer.status, answer.text);
  return (answer.text ? JSON.parse(answer.text) : null) as T;
}

/** The cabinet's session: its cookies kept between calls, the CSRF cookie sent back in its header. */
export class CabinetSession {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly http: Http) {}

  private keep(lines: readonly string[]): void {
    for (const line of lines) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), decodeURIComponent(pair.slice(at + 1).trim()));
    }
  }

  readonly request: Http = async (request) => {
    const headers: Record<string, string> = { ...request.headers };
    if (this.cookies.size)
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (csrf && request.method !== 'GET') headers[CSRF_HEADER] = csrf;
    const answer = await this.http({ ...request, headers });
    this.keep(answer.cookies);
    return answer;
  };

  /** The CSRF cookie, then the login (`POST /api/auth/login/`). */
  async login(username: string, password: string): Promise<void> {
    await callJson(this.request, 'CSRF cookie', { method: 'GET', path: '/api/auth/csrf/' });
    await callJson(this.request, 'login', { method: 'POST', path: '/api/auth/login/', json: { username, password } });
  }
}
