import type { IncomingMessage } from 'node:http';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  DEMO_ID_HEADER,
  ERROR_MESSAGES,
  isCleanText,
  MEDIA_ID_HEADER,
  MEDIA_LIMITS,
  MEDIA_UPLOAD_PATH,
  MESSAGES,
  mediaListOutput,
  mediaOutput,
  SESSION_COOKIE,
} from '@emolens/contracts';
import { Server as TusServer, type Upload } from '@tus/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { currentUser } from '../../http/security.ts';
import { resolveSession } from '../auth/auth.service.ts';
import { safeEqual } from '../auth/tokens.ts';
import {
  attachDemoUpload,
  checkDemoUploadCreate,
  isDemoUpload,
} from '../interview-analysis/interview-analysis.service.ts';
import {
  attachUpload,
  checkRawMetadata,
  checkUploadCreate,
  deleteMedia,
  fileOf,
  getMedia,
  listMedia,
  posterOf,
  UploadRejected,
} from './media.service.ts';
import { sendStoredFile } from './serving.ts';
import { StorageUnavailable, unreachable } from './storage.ts';
import { createUploadArea } from './uploads.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const UPLOAD_ID = /^[A-Za-z0-9_-]{1,128}$/;
const idParams = z.object({ id: z.string().max(64) });

/** The Node request behind the web Request `@tus/server` hands to its hooks. */
function nodeRequestOf(req: unknown): IncomingMessage | undefined {
  return (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
}

/**
 * Resumable uploads (tus 1.0.0) under /mediaserver: create with POST, append with PATCH at the
 * offset HEAD reports, DELETE to abandon. Partial data streams to the bucket when the storage is S3, else to
 * UPLOAD_DIR (uploads.ts), never into memory; a finished file is checked by content, moved into storage and
 * attached to its research.
 *
 * Every request carries the cabinet session cookie, and every unsafe one the CSRF header equal to
 * the csrftoken cookie, as on /api. An upload is reachable only by the user who created it.
 */
export function mediaUploadRoutes(ctx: AppContext): FastifyPluginAsync {
  const deps = ctx.deps;
  const area = createUploadArea(ctx.config, deps.media, ctx.log);
  const store = area.datastore;
  /** Who is behind each request tus is handling (its hooks see only the request). */
  const users = new WeakMap<IncomingMessage, User>();
  const userOf = (req: unknown): User => {
    const raw = nodeRequestOf(req);
    const user = raw && users.get(raw);
    if (!user) throw new UploadRejected(401, 'Authentication required.');
    return user;
  };

  const tus = new TusServer({
    path: MEDIA_UPLOAD_PATH,
    datastore: store,
    relativeLocation: true,
    // Same-origin only: no CORS headers for other sites.
    allowedOrigins: () => false,
    exposedHeaders: [MEDIA_ID_HEADER, DEMO_ID_HEADER],
    maxSize: MEDIA_LIMITS.videoBytes,
    disableTerminationForFinishedUploads: true,
    onUploadCreate: async (req, upload) => {
      checkRawMetadata(req.headers.get('upload-metadata'));
      // A demo or interview video is the user's own, not a research's file.
      const metadata = isDemoUpload(upload.metadata)
        ? checkDemoUploadCreate(userOf(req), upload)
        : await checkUploadCreate(deps, userOf(req), upload);
      return { metadata: { ...metadata } };
    },
    onUploadFinish: async (req, upload) => ({ headers: await finish(userOf(req), upload) }),
    // tus answers an unexpected error with its message appended (a database's or the disk's): the
    // answer keeps only a generic text, the details go to the log.
    onResponseError: (_req, err) => {
      if (err instanceof UploadRejected) return undefined;
      if ('status_code' in err && err.status_code === 413)
        return { status_code: 413, body: MESSAGES['media.tooLarge'] };
      // tus's own answers pass as they are: a request it refuses (4xx), and an extension of the protocol it does
      // not offer (501 Not Implemented: Upload-Concat from a client's parallel upload, Upload-Defer-Length).
      if ('status_code' in err && (err.status_code < 500 || err.status_code === 501)) return undefined;
      // The bucket that keeps unfinished uploads (S3 storage) does not answer.
      if (err instanceof StorageUnavailable || unreachable(err)) {
        ctx.log.error({ err }, 'upload failed: the storage does not answer');
        return { status_code: 503, body: MESSAGES['storage.unavailable'] };
      }
      ctx.log.error({ err }, 'upload failed');
      return { status_code: 500, body: ERROR_MESSAGES.internal };
    },
  });

  /**
   * A finished upload checked and attached: its id header. When the storage does not answer, the upload is put back
   * as it was, complete, so the client's retry (a HEAD, then nothing left to send) finishes it: see `handle`.
   */
  async function finish(user: User, upload: Upload): Promise<Record<string, string>> {
    const file = await area.take(upload);
    if (!file) throw new UploadRejected(404, 'The upload is already finished');
    try {
      const taken = { file, size: upload.size ?? 0, metadata: upload.metadata };
      const attached: Record<string, string> = isDemoUpload(upload.metadata)
        ? { [DEMO_ID_HEADER]: (await attachDemoUpload(deps, user, taken)).id }
        : { [MEDIA_ID_HEADER]: (await attachUpload(deps, user, taken)).id };
      await area.done(upload);
      return attached;
    } catch (err) {
      if (err instanceof StorageUnavailable) await area.putBack(upload, file);
      else await area.done(upload);
      throw err;
    }
  }

  async function authorize(request: FastifyRequest): Promise<User> {
    if (!SAFE_METHODS.has(request.method)) {
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!cookie || typeof header !== 'string' || !safeEqual(cookie, header)) throw new AppError('csrf_failed');
    }
    const token = request.cookies[SESSION_COOKIE];
    const auth = token ? await resolveSession(ctx.deps, token) : undefined;
    if (!auth) throw new AppError('unauthorized');
    return auth.user;
  }

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.method !== 'OPTIONS') {
      const user = await authorize(request);
      const id = (request.params as { '*'?: string })['*'];
      if (id !== undefined && id !== '') {
        if (!isCleanText(id)) throw new AppError('bad_request', { message: 'media.uploadIdInvalid' });
        if (!UPLOAD_ID.test(id)) throw new AppError('not_found');
        // Someone else's upload does not exist for this user.
        const upload = await store.getUpload(id).catch(() => undefined);
        if (upload && upload.metadata?.owner !== user.id) throw new AppError('not_found');
        // Complete but not attached (the storage did not answer at its last PATCH): the client resuming asks where
        // to go on, and the answer finishes it, with the id header the last PATCH would have carried.
        if (request.method === 'HEAD' && upload?.size !== undefined && upload.offset === upload.size) {
          const attached = await finish(user, upload).catch((err: unknown) => {
            // Finished meanwhile by another request.
            if (err instanceof UploadRejected) throw new AppError('not_found');
            throw err;
          });
          reply.hijack();
          reply.raw.writeHead(200, {
            'tus-resumable': '1.0.0',
            'upload-offset': String(upload.size),
            'upload-length': String(upload.size),
            'cache-control': 'no-store',
            ...attached,
          });
          reply.raw.end();
          return;
        }
      }
      users.set(request.raw, user);
    }
    reply.hijack();
    try {
      await tus.handle(request.raw, reply.raw);
    } catch (err) {
      ctx.log.error({ err }, 'upload request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain' });
      reply.raw.end();
    }
  }

  return async (app) => {
    // The body is tus's to read, as a stream, whatever its type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const methods = ['POST', 'PATCH', 'HEAD', 'DELETE', 'OPTIONS'] as const;
    const schema = { hide: true };
    app.route({ method: [...methods], url: MEDIA_UPLOAD_PATH, schema, handler: handle });
    app.route({ method: [...methods], url: `${MEDIA_UPLOAD_PATH}/*`, schema, handler: handle });
  };
}

/** The research's files in the cabinet: list, one, delete (while editable), poster frame. */
export function mediaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/cabinet/campaigns/:id/media/',
      {
        schema: {
          tags: ['media'],
          summary: "The research's uploaded files, oldest first",
          params: idParams,
          response: { 200: mediaListOutput },
        },
      },
      async (request) => ({ items: await listMedia(deps, currentUser(request).user, request.params.id) }),
    );

    app.get(
      '/cabinet/media/:id/',
      {
        schema: {
          tags: ['media'],
          summary: 'One uploaded file (status and probe results)',
          params: idParams,
          response: { 200: mediaOutput },
        },
      },
      async (request) => getMedia(deps, currentUser(request).user, request.params.id),
    );

    app.delete(
      '/cabinet/media/:id/',
      {
        schema: {
          tags: ['media'],
          summary: 'Deletes a file of a research of a draft project, with its stored bytes',
          params: idParams,
        },
      },
      async (request, reply) => {
        await deleteMedia(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );

    app.get(
      '/cabinet/media/:id/file/',
      { schema: { tags: ['media'], summary: 'The uploaded file itself (Range supported)', params: idParams } },
      async (request, reply) => {
        const file = await fileOf(deps, currentUser(request).user, request.params.id);
        return sendStoredFile(request, reply, deps.storage, file);
      },
    );

    app.get(
      '/cabinet/media/:id/poster/',
      { schema: { tags: ['media'], summary: "A video's poster frame (JPEG)", params: idParams } },
      async (request, reply) => {
        const poster = await posterOf(deps, currentUser(request).user, request.params.id);
        return sendStoredFile(request, reply, deps.storage, poster);
      },
    );
  };
}
