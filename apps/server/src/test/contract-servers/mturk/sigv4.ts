/** The MTurk contract server's check of AWS Signature Version 4 (see server.ts). */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MTURK_REGION } from '../../../integrations/mturk/client.ts';
import { header } from './requests.ts';
import { ApiError, MAX_CLOCK_SKEW_MS, SIGNING_SERVICE } from './types.ts';

// ——— SigV4 ———

/**
 * Verifies the SigV4 `Authorization` header; answers the access key id. Steps per the SigV4 spec: canonical
 * request (method, URI, query, signed headers from the raw headers, payload hash), string to sign
 * (`AWS4-HMAC-SHA256`, X-Amz-Date, scope, hash of the canonical request), signing key derived from the secret
 * by HMAC over date, region, service and `aws4_request`, and a constant-time comparison.
 */
export function authenticate(req: IncomingMessage, body: Buffer, credentials: ReadonlyMap<string, string>): string {
  const authorization = header(req, 'authorization');
  if (!authorization) throw new ApiError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const parsed =
    /^AWS4-HMAC-SHA256\s+Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization.trim(),
    );
  if (!parsed) {
    throw new ApiError(400, 'IncompleteSignatureException', 'The request signature does not conform to AWS standards.');
  }
  const [, accessKeyId = '', date = '', region = '', service = '', signedHeaderList = '', signature = ''] = parsed;
  const secret = credentials.get(accessKeyId);
  if (secret === undefined) {
    throw new ApiError(
      403,
      'UnrecognizedClientException',
      'The X.509 certificate or AWS access key ID provided does not exist in our records.',
    );
  }
  const amzDate = header(req, 'x-amz-date') ?? '';
  const signedHeaders = signedHeaderList.split(';');
  if (
    !/^\d{8}T\d{6}Z$/.test(amzDate) ||
    amzDate.slice(0, 8) !== date ||
    region !== MTURK_REGION ||
    service !== SIGNING_SERVICE ||
    !signedHeaders.includes('host') ||
    !signedHeaders.includes('x-amz-date')
  ) {
    throw new ApiError(
      400,
      'IncompleteSignatureException',
      `Credential should be scoped to <date>/${MTURK_REGION}/${SIGNING_SERVICE}/aws4_request and sign host and x-amz-date.`,
    );
  }
  const signedAt = Date.UTC(
    Number(amzDate.slice(0, 4)),
    Number(amzDate.slice(4, 6)) - 1,
    Number(amzDate.slice(6, 8)),
    Number(amzDate.slice(9, 11)),
    Number(amzDate.slice(11, 13)),
    Number(amzDate.slice(13, 15)),
  );
  if (Math.abs(Date.now() - signedAt) > MAX_CLOCK_SKEW_MS) {
    throw new ApiError(
      403,
      'InvalidSignatureException',
      `Signature expired: ${amzDate} is more than 15 minutes from now.`,
    );
  }

  const url = new URL(req.url ?? '/', 'http://contract.invalid');
  const canonicalRequest = [
    req.method ?? 'POST',
    canonicalPath(url.pathname),
    canonicalQuery(url.searchParams),
    `${signedHeaders.map((name) => `${name}:${canonicalHeaderValue(req, name)}`).join('\n')}\n`,
    signedHeaderList,
    sha256Hex(body),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${secret}`, date);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest();
  const given = Buffer.from(signature, 'hex');
  const contentHash = header(req, 'x-amz-content-sha256');
  if (
    given.length !== expected.length ||
    !timingSafeEqual(given, expected) ||
    (contentHash !== undefined && contentHash !== sha256Hex(body))
  ) {
    throw new ApiError(
      403,
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    );
  }
  return accessKeyId;
}

export function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** RFC 3986 encoding as SigV4 wants it (unreserved characters kept, everything else %XX upper-case). */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Non-S3 services encode each path segment twice (once for the URI, once for the canonical request). */
export function canonicalPath(pathname: string): string {
  const segments = pathname.split('/').map((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // keep the raw segment
    }
    return uriEncode(uriEncode(decoded));
  });
  const path = segments.join('/');
  return path.startsWith('/') ? path : `/${path}`;
}

export function canonicalQuery(params: URLSearchParams): string {
  return [...params]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Every raw value of the header, trimmed and with inner runs of spaces collapsed, joined by commas. */
export function canonicalHeaderValue(req: IncomingMessage, name: string): string {
  const values: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === name)
      values.push((req.rawHeaders[i + 1] ?? '').trim().replace(/\s+/g, ' '));
  }
  return values.join(',');
}
