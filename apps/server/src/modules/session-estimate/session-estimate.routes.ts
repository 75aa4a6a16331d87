import { batchEstimateInput, batchEstimateOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { batchEstimate } from './session-estimate.service.ts';

/** Respondent sessions of the cabinet (spec section 7): the estimate of the sessions fieldwork uses. */
export function sessionEstimateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.post(
      '/entity_session/batch-estimate-count/',
      {
        schema: {
          tags: ['sessions'],
          summary: 'Estimates the sessions (5-minute intervals) scenarios or quota links will use',
          body: batchEstimateInput,
          response: { 200: batchEstimateOutput },
        },
      },
      async (request) => batchEstimate(deps, currentUser(request).user, request.body),
    );
  };
}
