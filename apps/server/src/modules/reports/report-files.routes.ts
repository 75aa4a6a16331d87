import type { Readable } from 'node:stream';
import {
  generateReportFileInput,
  PRESENTATION_UPLOAD_TYPES,
  presentationUploadQuery,
  reportFileKindParams,
  reportFileSchema,
  reportFilesOutput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { currentUser } from '../../http/security.ts';
import { sendStoredFile } from '../media/serving.ts';
import {
  attachPresentation,
  downloadReportFile,
  generateReportFile,
  listReportFiles,
  removeReportFile,
} from './report-files.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const tags = ['reports'];
/** The body of an attached presentation: its bytes as they are, streamed by the service. */
const UPLOAD_TYPES = ['application/octet-stream', ...Object.values(PRESENTATION_UPLOAD_TYPES)];

/**
 * A report's presentation and video export: state, making, download, removal, and attaching one's own. Mounted, as
 * the report routes are, under the cabinet (`/api/cabinet`) and the report builder's API (`/report_builder/api`).
 */
export function reportFilesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    // Only here: an attached presentation's body stays a stream (Fastify's body limit does not apply; the service
    // enforces its own while it writes the file).
    app.addContentTypeParser(UPLOAD_TYPES, (_request, payload, done) => done(null, payload));

    app.get(
      '/reports/:id/files/',
      {
        schema: {
          tags,
          summary: "The report's presentation and video export: state, progress and what may be done with each",
          params: idParams,
          response: { 200: reportFilesOutput },
        },
      },
      async (request) => listReportFiles(deps, currentUser(request).user, request.params.id),
    );
    app.post(
      '/reports/:id/files/:kind/',
      {
        schema: {
          tags,
          summary: 'Make the presentation (PPTX) or the video export (MP4) of a built report, in a language',
          params: reportFileKindParams,
          body: generateReportFileInput,
          response: { 202: reportFileSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await generateReportFile(
              deps,
              currentUser(request).user,
              request.params.id,
              request.params.kind,
              request.body,
            ),
          ),
    );
    app.get(
      '/reports/:id/files/:kind/download/',
      {
        schema: {
          tags,
          summary: 'Download the presentation or the video export (Range supported)',
          params: reportFileKindParams,
        },
      },
      async (request, reply) => {
        const file = await downloadReportFile(deps, currentUser(request).user, request.params.id, request.params.kind);
        return sendStoredFile(request, reply, deps.storage, file);
      },
    );
    app.delete(
      '/reports/:id/files/:kind/',
      {
        schema: { tags, summary: 'Remove the presentation or the video export', params: reportFileKindParams },
      },
      async (request, reply) => {
        await removeReportFile(deps, currentUser(request).user, request.params.id, request.params.kind);
        return reply.status(204).send();
      },
    );
    app.put(
      '/reports/:id/files/presentation/',
      {
        schema: {
          tags,
          summary: "Attach one's own presentation (PDF or PPTX, at most 100 MB) in place of the generated one",
          params: idParams,
          querystring: presentationUploadQuery,
          consumes: UPLOAD_TYPES,
          body: z.any().describe('The file (PDF or PPTX), its bytes as the body'),
          response: { 200: reportFileSchema },
        },
      },
      async (request) => {
        const body: unknown = request.body;
        // Only the parser above hands a stream: JSON or no body is not a file.
        if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function') {
          throw new AppError('unsupported_media_type', { message: 'media.invalidFormat' });
        }
        const length = Number(request.headers['content-length']);
        return attachPresentation(deps, currentUser(request).user, request.params.id, {
          filename: request.query.filename,
          body: body as Readable,
          declaredSize: Number.isFinite(length) ? length : undefined,
        });
      },
    );
  };
}
