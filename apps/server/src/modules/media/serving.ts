import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange, Storage } from './storage.ts';

/**
 * Headers of a stored file served to the browser. The type is the one the upload decoded to (never
 * the upload's declared type); only the decoded picture and video types are shown inline, anything
 * else is a download. The browser may not sniff another type, and a document opened from the file
 * has no rights (no scripts, no requests, a sandboxed origin).
 */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'video/mp4', 'video/webm', 'video/x-matroska']);
/** Documents decoded as what they are (a report's presentation, PPTX or PDF): their own type, always a download. */
const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
]);

export function servingHeaders(mime: string, filename: string): Record<string, string> {
  const inline = INLINE_TYPES.has(mime);
  const headers: Record<string, string> = {
    'content-type': inline || DOCUMENT_TYPES.has(mime) ? mime : 'application/octet-stream',
    'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', filename),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'private, max-age=300',
  };
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

/**
 * A stored file as the browser gets it: its pieces in storage, in order, with their sizes in bytes (one piece
 * for an upload or a made file; a recording's chunks, which concatenate into one video).
 */
export interface StoredFile {
  mime: string;
  filename: string;
  pieces: readonly StoredPiece[];
}

export interface StoredPiece {
  key: string;
  size: number;
}

/** A file of one stored piece. */
export function storedFile(key: string, size: number, mime: string, filename: string): StoredFile {
  return { mime, filename, pieces: [{ key, size }] };
}

/**
 * The one way a stored file reaches a browser (content, posters, recordings, the demo's video, report files):
 * its serving headers, `Accept-Ranges: bytes`, and the one byte range a `Range` header asks for as 206 with
 * `Content-Range` (what lets a `<video>` seek), 416 with a `Content-Range` of `*` and the size for a range
 * outside the file, the whole file as 200 otherwise. A HEAD (Fastify answers one for each GET route) gets the same
 * headers and opens nothing in storage. Only the pieces the range covers are read, each by its own ranged read.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  file: StoredFile,
): Promise<FastifyReply> {
  const size = file.pieces.reduce((sum, piece) => sum + piece.size, 0);
  const range = byteRange(request.headers.range, size);
  reply.headers(servingHeaders(file.mime, file.filename)).header('accept-ranges', 'bytes');
  if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
  const wanted = range ?? { start: 0, end: size - 1 };
  // Opened before the status is set: a file missing in storage answers as an error, not as a 206 without bytes.
  const body = request.method === 'HEAD' ? Readable.from([]) : await openRange(storage, file.pieces, wanted);
  if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  return reply.header('content-length', String(wanted.end - wanted.start + 1)).send(body);
}

/** The bytes `start`…`end` (inclusive) of the pieces joined: the first piece opened now, the others in turn. */
async function openRange(storage: Storage, pieces: readonly StoredPiece[], wanted: ByteRange): Promise<Readable> {
  const reads: { key: string; range: ByteRange | undefined }[] = [];
  let offset = 0;
  for (const piece of pieces) {
    const start = Math.max(wanted.start, offset);
    const end = Math.min(wanted.end, offset + piece.size - 1);
    if (start <= end) {
      const whole = start === offset && end === offset + piece.size - 1;
      reads.push({ key: piece.key, range: whole ? undefined : { start: start - offset, end: end - offset } });
    }
    offset += piece.size;
  }
  const [first, ...rest] = reads;
  if (!first) return Readable.from([]);
  const opened = await storage.stream(first.key, first.range);
  if (!rest.length) return opened;
  async function* bytes() {
    yield* opened;
    for (const read of rest) yield* await storage.stream(read.key, read.range);
  }
  const joined = Readable.from(bytes(), { objectMode: false });
  // A reader gone before the first byte leaves no piece open.
  joined.once('close', () => opened.destroy());
  return joined;
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
