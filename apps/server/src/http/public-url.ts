import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** One host name or address with an optional port: nothing that could carry a path or credentials. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The value the nearest proxy set: proxies that append put theirs last. */
function lastValue(header: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(header) ? header.join(',') : header;
  const value = joined?.split(',').pop()?.trim();
  return value || undefined;
}

/**
 * The origin (scheme, host, port) of links handed out to people, such as the respondent URL of a
 * quota link. A request's own Host header never decides it: anyone can send any Host and would get
 * links to their own site back. PUBLIC_URL, when set, is the answer; otherwise, only behind a trusted
 * proxy (TRUST_PROXY), the X-Forwarded-Host and X-Forwarded-Proto it sets; otherwise the default
 * http://localhost:PORT.
 */
export function publicOrigin(
  config: Pick<Config, 'publicUrl' | 'publicUrlSet' | 'trustProxy'>,
  request: Pick<FastifyRequest, 'headers'>,
): string {
  if (config.publicUrlSet || !config.trustProxy) return config.publicUrl;
  const host = lastValue(request.headers['x-forwarded-host']);
  if (!host || !HOST.test(host)) return config.publicUrl;
  const proto = lastValue(request.headers['x-forwarded-proto'])?.toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : new URL(config.publicUrl).protocol.slice(0, -1);
  return new URL(`${scheme}://${host}`).origin;
}
