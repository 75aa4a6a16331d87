import {
  processesListOutput,
  processesListQuery,
  reprocessOutput,
  videoProcessIdParams,
  videoProcessOutput,
  videoprocessesStatisticInput,
  videoprocessesStatisticOutput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { contentDisposition } from '../media/serving.ts';
import {
  cancelProcess,
  cintStatisticFile,
  processesOf,
  processesStatistic,
  reprocessResearch,
  restartProcess,
} from './processing.service.ts';

/** Video processes of respondent recordings (spec section 7): lists, counts, restart, cancel, reprocess. */
export function processingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    const tags = ['processing'];

    app.get(
      '/videoprocessor/campaigns-processes-list/',
      {
        schema: {
          tags,
          summary: 'Every video process of a research with its state, respondent and measured quality',
          querystring: processesListQuery,
          response: { 200: processesListOutput },
        },
      },
      async (request) => ({ items: await processesOf(deps, currentUser(request).user, request.query.campaign) }),
    );

    app.get(
      '/videoprocessor/campaigns-processes-list/cint-processes-statistic/:id',
      {
        schema: {
          tags,
          summary: "Download the research's video processes for the Cint panel (CSV: RID, state, verdict)",
          params: videoProcessIdParams,
        },
      },
      async (request, reply) => {
        const file = await cintStatisticFile(deps, currentUser(request).user, request.params.id);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', contentDisposition('attachment', file.filename))
          .header('cache-control', 'private, no-store')
          .send(file.csv);
      },
    );

    app.post(
      '/cabinet/campaigns/videoprocesses-statistic/',
      {
        schema: {
          tags,
          summary: 'Video processes of researches counted by status, with usable and excluded sessions',
          body: videoprocessesStatisticInput,
          response: { 200: videoprocessesStatisticOutput },
        },
      },
      async (request) => processesStatistic(deps, currentUser(request).user, request.body.campaigns),
    );

    app.post(
      '/cabinet/video-processes/:id/restart/',
      {
        schema: {
          tags,
          summary: 'Process an ended video again (a new attempt with the current engine)',
          params: videoProcessIdParams,
          response: { 200: videoProcessOutput },
        },
      },
      async (request) => restartProcess(deps, currentUser(request).user, request.params.id),
    );

    app.post(
      '/cabinet/video-processes/:id/cancel/',
      {
        schema: {
          tags,
          summary: 'Stop a waiting or running video process',
          params: videoProcessIdParams,
          response: { 200: videoProcessOutput },
        },
      },
      async (request) => cancelProcess(deps, currentUser(request).user, request.params.id),
    );

    app.post(
      '/cabinet/campaigns/:id/reprocess/',
      {
        schema: {
          tags,
          summary: 'Process every ended video of a research again; current results stay until the new ones are done',
          params: videoProcessIdParams,
          response: { 200: reprocessOutput },
        },
      },
      async (request) => reprocessResearch(deps, currentUser(request).user, request.params.id),
    );
  };
}
