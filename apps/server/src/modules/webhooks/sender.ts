import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  AddressNotAllowedError,
  checkedAddresses,
  guardedLookup,
  HostUnresolvedError,
  hostOf,
} from './address-guard.ts';

/** The most of an answer's body read: enough to tell it arrived, never a large download. */
export const RESPONSE_BODY_LIMIT = 4096;

export interface SendResult {
  /** The answer's status, or null when none came. */
  statusCode: number | null;
  /** Why it failed (null: a 2xx answer). */
  error: 'timeout' | 'address_not_allowed' | 'host_unresolved' | 'connection' | 'http_status' | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  allowHttp: boolean;
}

/**
 * One POST of a signed message (decision 066): to checked addresses only, redirects not followed (a 3xx is a
 * failure), the whole exchange bounded by the timeout, at most RESPONSE_BODY_LIMIT bytes of the answer read.
 */
export async function sendWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: SendResult['error']): SendResult => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return done(null, 'address_not_allowed');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp)) {
    return done(null, 'address_not_allowed');
  }
  try {
    // An IP literal is connected to without a lookup: checked here; a name is checked again by the lookup.
    await checkedAddresses(hostOf(url), options.allowPrivateAddresses);
  } catch (err) {
    return done(null, err instanceof AddressNotAllowedError ? 'address_not_allowed' : 'host_unresolved');
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Emolens-Webhooks/1',
        },
        lookup: guardedLookup(options.allowPrivateAddresses) as never,
        agent: false,
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? null;
        const ok = status !== null && status >= 200 && status < 300;
        let read = 0;
        const end = () => {
          finish(done(status, ok ? null : 'http_status'));
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= RESPONSE_BODY_LIMIT) end();
        });
        res.on('end', end);
        res.on('error', end);
        res.on('close', end);
      },
    );
    const timer = setTimeout(() => {
      finish(done(null, 'timeout'));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof AddressNotAllowedError) finish(done(null, 'address_not_allowed'));
      else if (err instanceof HostUnresolvedError) finish(done(null, 'host_unresolved'));
      else finish(done(null, 'connection'));
    });
    req.end(body);
  });
}
