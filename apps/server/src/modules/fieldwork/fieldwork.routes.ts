import {
  checkTokensInput,
  checkTokensOutput,
  quotaStatisticsOutput,
  respondentSessionListOutput,
  respondentSessionListQuery,
  segmentParams,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { sendStoredFile } from '../media/serving.ts';
import {
  checkTokens,
  projectFieldwork,
  projectSessions,
  quotaStatistics,
  recordingOf,
  researchSessions,
} from './fieldwork.service.ts';

const idParams = z.object({ id: z.string().max(64) });

/** The cabinet's view of fieldwork: statistics, respondent sessions and their recordings, completion codes. */
export function fieldworkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    const tags = ['fieldwork'];

    app.get(
      '/cabinet/projects/:id/fieldwork/',
      {
        schema: {
          tags,
          summary: "A project's quota statistics: per scenario and quota link, with drop-outs by step",
          params: idParams,
          response: { 200: quotaStatisticsOutput },
        },
      },
      async (request) => projectFieldwork(deps, currentUser(request).user, request.params.id),
    );

    app.get(
      '/cabinet/projects/:id/respondent-sessions/',
      {
        schema: {
          tags,
          summary: "A project's respondent sessions, newest first, with their recording segments",
          params: idParams,
          querystring: respondentSessionListQuery,
          response: { 200: respondentSessionListOutput },
        },
      },
      async (request) => projectSessions(deps, currentUser(request).user, request.params.id, request.query),
    );

    app.get(
      '/cabinet/campaigns/:id/respondent-sessions/',
      {
        schema: {
          tags,
          summary: 'The respondent sessions that were given a research, newest first',
          params: idParams,
          querystring: respondentSessionListQuery,
          response: { 200: respondentSessionListOutput },
        },
      },
      async (request) => researchSessions(deps, currentUser(request).user, request.params.id, request.query),
    );

    app.get(
      '/cabinet/respondent-sessions/:id/recordings/:segment/',
      {
        schema: {
          tags,
          summary: "One segment of a session's recording: its chunks in order as one video (Range supported)",
          params: segmentParams,
        },
      },
      async (request, reply) => {
        const file = await recordingOf(deps, currentUser(request).user, request.params.id, request.params.segment);
        return sendStoredFile(request, reply, deps.storage, file);
      },
    );

    app.post(
      '/cabinet/check-token/',
      {
        schema: {
          tags,
          summary: 'Verifies pasted completion codes and reports their sessions',
          body: checkTokensInput,
          response: { 200: checkTokensOutput },
        },
      },
      async (request) => checkTokens(deps, currentUser(request).user, ctx.secret, request.body.codes),
    );
  };
}

/** GET /r/quota/{projectId}: the public quota page's numbers (no login, no personal data). */
export function publicQuotaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/quota/:projectId',
      {
        schema: {
          tags: ['fieldwork'],
          summary: "A project's quota statistics for the public quota page",
          params: z.object({ projectId: z.string().max(64) }),
          response: { 200: quotaStatisticsOutput },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return quotaStatistics(deps, request.params.projectId);
      },
    );
  };
}
