import type { InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * What the test clients (`Client`, `RespondentClient`) send their requests through: the app in the test's own
 * process (`app.inject`), or real servers over HTTP (`overHttp`).
 */
export interface Injector {
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

function cookiesOf(headers: Headers): { name: string; value: string; expires?: Date }[] {
  return headers.getSetCookie().map((line) => {
    const [pair = '', ...attributes] = line.split(';');
    const at = pair.indexOf('=');
    const expires = attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('expires='));
    return {
      name: pair.slice(0, at).trim(),
      value: decodeURIComponent(pair.slice(at + 1).trim()),
      ...(expires ? { expires: new Date(expires.slice('expires='.length)) } : {}),
    };
  });
}

/**
 * Requests sent over real HTTP to several servers of one installation (API processes behind a proxy),
 * round-robin: consecutive requests of one client arrive at different servers. `served` counts the requests
 * each server answered.
 */
export function overHttp(bases: readonly string[]): Injector & { served: Map<string, number> } {
  let next = 0;
  const served = new Map(bases.map((b) => [b, 0]));
  return {
    served,
    async inject(options) {
      const base = bases[next++ % bases.length] as string;
      served.set(base, (served.get(base) ?? 0) + 1);
      const headers = new Headers();
      for (const [name, value] of Object.entries(options.headers ?? {})) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      }
      const payload = options.payload;
      const body =
        payload === undefined || payload === null
          ? undefined
          : typeof payload === 'string'
            ? payload
            : Buffer.isBuffer(payload)
              ? new Uint8Array(payload)
              : JSON.stringify(payload);
      const res = await fetch(new URL(String(options.url), base), {
        method: options.method ?? 'GET',
        headers,
        body,
        redirect: 'manual',
      });
      const raw = Buffer.from(await res.arrayBuffer());
      const responseHeaders: Record<string, string | string[]> = {};
      res.headers.forEach((value, name) => {
        responseHeaders[name] = value;
      });
      if (res.headers.getSetCookie().length) responseHeaders['set-cookie'] = res.headers.getSetCookie();
      const response = {
        statusCode: res.status,
        statusMessage: res.statusText,
        headers: responseHeaders,
        rawPayload: raw,
        payload: raw.toString(),
        body: raw.toString(),
        json: () => JSON.parse(raw.toString()),
        cookies: cookiesOf(res.headers),
      };
      // The fields the test clients read; the rest of light-my-request's response (trailers, stream) is unused.
      return response as unknown as LightMyRequestResponse;
    },
  };
}

/** What a request of a respondent's browser may carry; `secret`: its bearer (null: none, unset: the client's own). */
export interface BearerRequestOptions {
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
  secret?: string | null;
}

/** A request as a respondent's browser sends it: the secret as its bearer, a raw or a JSON body. */
export function bearerRequest(
  app: Injector,
  request: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; secret: string; address?: string },
  options: BearerRequestOptions,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const secret = options.secret === undefined ? request.secret : options.secret;
  if (secret) headers.authorization = `Bearer ${secret}`;
  let payload: string | Buffer | undefined;
  if (options.raw !== undefined) {
    payload = options.raw;
    headers['content-type'] ??= 'application/octet-stream';
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return app.inject({ method: request.method, url: request.url, headers, payload, remoteAddress: request.address });
}
