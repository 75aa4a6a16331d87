import {
  ANALYSIS_SITE_CALLS_PER_MINUTE,
  analysisSiteInput,
  analysisSiteOutput,
  deviceCheckInput,
  deviceTooSlowOutput,
} from '@emolens/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../auth/tokens.ts';
import { checkDevice, chooseServer, stopTooSlow } from './analysis-site.ts';

const sessionParams = z.strictObject({ id: z.string().max(64) });

/**
 * Privacy mode's calls (issue 32; decision 064) under the respondent's `/r/sessions/{id}`: registered inside the
 * respondent routes, whose hook finds the caller's own session by its secret first (every call without it is "not
 * found"). Each is limited per session like the calibration check's start.
 */
export function analysisSiteRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  const signing = { secret: ctx.secret };
  const own = (request: FastifyRequest) => {
    if (!request.respondentSession) throw new AppError('not_found', { message: 'respondent.sessionNotFound' });
    return request.respondentSession;
  };
  const rateLimit = {
    max: ANALYSIS_SITE_CALLS_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) =>
      `analysis-site:${hashToken(request.headers.authorization ?? request.ip)}`,
  };

  return async (app) => {
    const tags = ['respondent'];
    app.post(
      '/sessions/:id/device-check',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary:
            'Privacy mode: the frames a second the device analysed; decides whether the analysis stays on the device (before the first chunk)',
          params: sessionParams,
          body: deviceCheckInput,
          response: { 200: analysisSiteOutput },
        },
      },
      async (request) => checkDevice(deps, own(request), request.body.framesPerSecond),
    );

    app.post(
      '/sessions/:id/analysis-site',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: 'Privacy mode: a device measured too slow uploads the video instead (when the research offers it)',
          params: sessionParams,
          body: analysisSiteInput,
          response: { 200: analysisSiteOutput },
        },
      },
      async (request) => chooseServer(deps, own(request)),
    );

    app.post(
      '/sessions/:id/device-too-slow',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary:
            'Privacy mode: a device measured too slow stops; the session ends (told to the panel as a screen-out)',
          params: sessionParams,
          response: { 200: deviceTooSlowOutput },
        },
      },
      async (request) => stopTooSlow(deps, signing, own(request)),
    );
  };
}
