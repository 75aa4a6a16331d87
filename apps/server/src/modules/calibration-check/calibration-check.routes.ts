import {
  CALIBRATION_CHECK_LIMITS,
  calibrationCheckInput,
  calibrationCheckParams,
  calibrationCheckState,
} from '@emolens/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../auth/tokens.ts';
import { checkState, startCheck } from './calibration-check.service.ts';

const sessionParams = z.strictObject({ id: z.string().max(64) });

/**
 * The calibration check before the content (decision 050), under the respondent's `/r/sessions/{id}`: registered
 * inside the respondent routes, whose hook finds the caller's own session by its secret first (every call without it
 * is "not found").
 */
export function calibrationCheckRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  const signing = { secret: ctx.secret };
  const own = (request: FastifyRequest) => {
    if (!request.respondentSession) throw new AppError('not_found', { message: 'respondent.sessionNotFound' });
    return request.respondentSession;
  };

  return async (app) => {
    const tags = ['respondent'];
    app.post(
      '/sessions/:id/calibration-checks',
      {
        config: {
          rateLimit: {
            max: CALIBRATION_CHECK_LIMITS.startsPerMinute,
            timeWindow: '1 minute',
            keyGenerator: (request) => `calibration-check:${hashToken(request.headers.authorization ?? request.ip)}`,
          },
        },
        schema: {
          tags,
          summary: "The calibration and its validation are sent: queues this attempt's check (idempotent per attempt)",
          params: sessionParams,
          body: calibrationCheckInput,
          response: { 200: calibrationCheckState },
        },
      },
      async (request) => startCheck(deps, signing, own(request), request.body),
    );

    app.get(
      '/sessions/:id/calibration-checks/:attempt',
      {
        schema: {
          tags,
          summary: 'One calibration check: queued, processing (with progress), passed or failed, and what comes next',
          params: calibrationCheckParams,
          response: { 200: calibrationCheckState },
        },
      },
      async (request) => checkState(deps, signing, own(request), request.params.attempt),
    );
  };
}
