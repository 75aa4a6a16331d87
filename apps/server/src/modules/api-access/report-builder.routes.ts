import { listResearchesQuery, researchListOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { listResearches } from '../researches/researches.service.ts';

/** Where the report builder's API lives (spec section 7). */
export const REPORT_BUILDER_PREFIX = '/report_builder/api';

/**
 * What the report builder's API adds to the report operations it shares with the cabinet (`reports.routes.ts`):
 * the researches to build on.
 */
export function reportBuilderRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/campaigns/',
      {
        schema: {
          tags: ['report builder'],
          summary: 'Researches the token’s user may see, by project, name or id, content type',
          querystring: listResearchesQuery,
          response: { 200: researchListOutput },
        },
      },
      async (request) => listResearches(ctx.deps, currentUser(request).user, request.query),
    );
  };
}
