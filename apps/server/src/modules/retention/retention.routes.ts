import { dataDeletionsOutput, deleteRespondentDataInput, deleteRespondentDataOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { deleteRespondentData, listDataDeletions } from './retention.service.ts';

const idParams = z.object({ id: z.string().max(64) });

export function retentionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.post(
      '/cabinet/projects/:id/respondent-data/delete/',
      {
        schema: {
          tags: ['projects'],
          summary:
            "Deletes a respondent's sessions (consent withdrawn) by participant id, session id or completion code, irreversibly",
          params: idParams,
          body: deleteRespondentDataInput,
          response: { 200: deleteRespondentDataOutput },
        },
      },
      async (request) =>
        deleteRespondentData(deps, ctx.secret, currentUser(request).user, request.params.id, request.body),
    );

    app.get(
      '/cabinet/projects/:id/data-deletions/',
      {
        schema: {
          tags: ['projects'],
          summary: "Deletions of the project's respondent data, newest first",
          params: idParams,
          response: { 200: dataDeletionsOutput },
        },
      },
      async (request) => listDataDeletions(deps, currentUser(request).user, request.params.id),
    );
  };
}
