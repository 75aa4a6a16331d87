import type { FastifyReply } from 'fastify';

/**
 * Headers of a stored file served to the browser. The type is the one the upload decoded to (never
 * the upload's declared type); only the decoded picture and video types are shown inline, anything
 * else is a download. The browser may not sniff another type, and a document opened from the file
 * has no rights (no scripts, no requests, a sandboxed origin).
 */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'video/mp4', 'video/webm', 'video/x-matroska']);

export function servingHeaders(mime: string, filename: string, size?: number): Record<string, string> {
  const inline = INLINE_TYPES.has(mime);
  const headers: Record<string, string> = {
    'content-type': inline ? mime : 'application/octet-stream',
    'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', filename),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'private, max-age=300',
  };
  if (size !== undefined) headers['content-length'] = String(size);
  return headers;
}

/**
 * RFC 6266: a plain ASCII `filename` (anything else replaced by `_`, quotes and backslashes too)
 * and the exact name as RFC 8187 `filename*`. No byte of the name reaches the header unescaped.
 */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^ -~]|["\\]/g, '_');
  let encoded: string;
  try {
    encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    // Not text (a lone surrogate): the ASCII form is all there is.
    return `${type}; filename="${ascii}"`;
  }
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The one byte range of a `Range: bytes=…` header over a file of `size` bytes (what a `<video>`
 * element asks for): undefined to send the whole file (no header, several ranges, not bytes),
 * 'unsatisfiable' for a range outside the file (416).
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  let start: number;
  let end: number;
  if (from === '') {
    // The last `to` bytes.
    const length = Number(to);
    if (length === 0) return 'unsatisfiable';
    start = Math.max(0, size - length);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start >= size || start > end)
    return 'unsatisfiable';
  return { start, end };
}

/** A generated file (an export) as an attachment the browser saves under `filename`, never cached. */
export function sendAttachment(
  reply: FastifyReply,
  file: { filename: string; type: string; body: string | Uint8Array },
): FastifyReply {
  return reply
    .type(file.type)
    .header('content-disposition', contentDisposition('attachment', file.filename))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(typeof file.body === 'string' ? file.body : Buffer.from(file.body));
}
