import {
  DEMO_EXPORT_FORMATS,
  demoAnalysisOutput,
  demoListOutput,
  demoListQuery,
  demoResultOutput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { contentDisposition, sendStoredFile } from '../media/serving.ts';
import { deleteDemo, demoFile, demoResult, exportFrames, getDemo, listDemo } from './interview-analysis.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const tags = ['demo'];

/** Demo mode and interview analysis: the user's own analyses (uploads go through /mediaserver). */
export function interviewAnalysisRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/cabinet/demo/',
      {
        schema: {
          tags,
          summary: "The user's demo or interview analyses, newest first",
          querystring: demoListQuery,
          response: { 200: demoListOutput },
        },
      },
      async (request) => ({ items: await listDemo(deps, currentUser(request).user, request.query.kind) }),
    );

    app.get(
      '/cabinet/demo/:id/',
      {
        schema: {
          tags,
          summary: 'One analysis: status, progress, summary',
          params: idParams,
          response: { 200: demoAnalysisOutput },
        },
      },
      async (request) => getDemo(deps, currentUser(request).user, request.params.id),
    );

    app.get(
      '/cabinet/demo/:id/result/',
      {
        schema: {
          tags,
          summary: 'A finished analysis: curves, tracked people, the face box per frame',
          params: idParams,
          response: { 200: demoResultOutput },
        },
      },
      async (request) => demoResult(deps, currentUser(request).user, request.params.id),
    );

    app.delete(
      '/cabinet/demo/:id/',
      { schema: { tags, summary: 'Deletes an analysis with its video', params: idParams } },
      async (request, reply) => {
        await deleteDemo(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );

    app.get(
      '/cabinet/demo/:id/video/',
      { schema: { tags, summary: 'The analysed video (Range supported)', params: idParams } },
      async (request, reply) => {
        const file = await demoFile(deps, currentUser(request).user, request.params.id);
        return sendStoredFile(request, reply, deps.storage, file);
      },
    );

    app.get(
      '/cabinet/demo/:id/frames/',
      {
        schema: {
          tags,
          summary: 'The per-frame data as CSV or JSON (a download)',
          params: idParams,
          querystring: z.strictObject({ format: z.enum(DEMO_EXPORT_FORMATS) }),
        },
      },
      async (request, reply) => {
        const { format } = request.query;
        const file = await exportFrames(deps, currentUser(request).user, request.params.id, format);
        return reply
          .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('content-disposition', contentDisposition('attachment', file.filename))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(file.body);
      },
    );
  };
}
