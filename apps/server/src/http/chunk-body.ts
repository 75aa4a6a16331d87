import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Recording chunks arrive as raw bytes (application/octet-stream), read into one buffer up to
 * `maxBytes` (above the app's body limit for JSON); a larger body is refused while it streams in,
 * with the respondent's "part too large" message. For the scope it is registered in.
 */
export function acceptChunkBodies(app: Pick<FastifyInstance, 'addContentTypeParser'>, maxBytes: number): void {
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => {
    const parts: Buffer[] = [];
    let size = 0;
    let failed = false;
    payload.on('data', (part: Buffer) => {
      if (failed) return;
      size += part.length;
      if (size > maxBytes) {
        failed = true;
        payload.resume();
        done(new AppError('payload_too_large', { message: 'respondent.chunkTooLarge' }), undefined);
        return;
      }
      parts.push(part);
    });
    payload.on('end', () => {
      if (!failed) done(null, Buffer.concat(parts));
    });
    payload.on('error', (err) => {
      if (!failed) {
        failed = true;
        done(err, undefined);
      }
    });
  });
}
