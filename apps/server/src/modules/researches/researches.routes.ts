import {
  addNewResearchInput,
  listResearchesQuery,
  researchListOutput,
  researchOutput,
  updateResearchDataInput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { sweepDeletedFiles } from '../media/media.service.ts';
import {
  addNewResearches,
  deleteResearch,
  getResearch,
  listResearches,
  updateResearchData,
} from './researches.service.ts';

const idParams = z.object({ id: z.string().max(64) });

/** Researches (campaigns), at the paths of spec section 7. */
export function researchesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.post(
      '/cabinet/projects/add-new-campaign/',
      {
        schema: {
          tags: ['campaigns'],
          summary: 'Adds researches to a draft project of the user',
          body: addNewResearchInput,
          response: { 201: z.object({ campaigns: z.array(researchOutput) }) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ campaigns: await addNewResearches(deps, currentUser(request).user, request.body) }),
    );

    app.get(
      '/cabinet/campaigns/',
      {
        schema: {
          tags: ['campaigns'],
          summary: 'Researches the user may see, by project, name or id, content type',
          querystring: listResearchesQuery,
          response: { 200: researchListOutput },
        },
      },
      async (request) => listResearches(deps, currentUser(request).user, request.query),
    );

    for (const path of ['/cabinet/campaigns/:id/', '/cabinet/campaigns/:id/get-campaign-data/']) {
      app.get(
        path,
        {
          schema: {
            tags: ['campaigns'],
            summary: 'One research with its settings',
            params: idParams,
            response: { 200: researchOutput },
          },
        },
        async (request) => getResearch(deps, currentUser(request).user, request.params.id),
      );
    }

    app.patch(
      '/cabinet/campaigns/:id/update-campaign-data/',
      {
        schema: {
          tags: ['campaigns'],
          summary: 'Edits a research of a draft project; 409 when changed since `updated_at`',
          params: idParams,
          body: updateResearchDataInput,
          response: { 200: researchOutput },
        },
      },
      async (request) => updateResearchData(deps, currentUser(request).user, request.params.id, request.body),
    );

    app.delete(
      '/cabinet/campaigns/:id/',
      { schema: { tags: ['campaigns'], summary: 'Deletes a research of a draft project', params: idParams } },
      async (request, reply) => {
        await deleteResearch(deps, currentUser(request).user, request.params.id);
        // Its files went with it; their stored bytes follow (the hourly job retries what fails).
        await sweepDeletedFiles(deps);
        return reply.status(204).send();
      },
    );
  };
}
