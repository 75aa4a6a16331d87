import {
  addNewCampaignInput,
  campaignListOutput,
  campaignOutput,
  listCampaignsQuery,
  updateCampaignDataInput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { sweepDeletedFiles } from '../media/media.service.ts';
import {
  addNewCampaigns,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  updateCampaignData,
} from './campaigns.service.ts';

const idParams = z.object({ id: z.string().max(64) });

/** Researches (campaigns), at the paths of spec section 7. */
export function campaignsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.post(
      '/cabinet/projects/add-new-campaign/',
      {
        schema: {
          tags: ['campaigns'],
          summary: 'Adds researches to a draft project of the user',
          body: addNewCampaignInput,
          response: { 201: z.object({ campaigns: z.array(campaignOutput) }) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ campaigns: await addNewCampaigns(deps, currentUser(request).user, request.body) }),
    );

    app.get(
      '/cabinet/campaigns/',
      {
        schema: {
          tags: ['campaigns'],
          summary: 'Researches the user may see, by project, name or id, content type',
          querystring: listCampaignsQuery,
          response: { 200: campaignListOutput },
        },
      },
      async (request) => listCampaigns(deps, currentUser(request).user, request.query),
    );

    for (const path of ['/cabinet/campaigns/:id/', '/cabinet/campaigns/:id/get-campaign-data/']) {
      app.get(
        path,
        {
          schema: {
            tags: ['campaigns'],
            summary: 'One research with its settings',
            params: idParams,
            response: { 200: campaignOutput },
          },
        },
        async (request) => getCampaign(deps, currentUser(request).user, request.params.id),
      );
    }

    app.patch(
      '/cabinet/campaigns/:id/update-campaign-data/',
      {
        schema: {
          tags: ['campaigns'],
          summary: 'Edits a research of a draft project; 409 when changed since `updated_at`',
          params: idParams,
          body: updateCampaignDataInput,
          response: { 200: campaignOutput },
        },
      },
      async (request) => updateCampaignData(deps, currentUser(request).user, request.params.id, request.body),
    );

    app.delete(
      '/cabinet/campaigns/:id/',
      { schema: { tags: ['campaigns'], summary: 'Deletes a research of a draft project', params: idParams } },
      async (request, reply) => {
        await deleteCampaign(deps, currentUser(request).user, request.params.id);
        // Its files went with it; their stored bytes follow (the hourly job retries what fails).
        await sweepDeletedFiles(deps);
        return reply.status(204).send();
      },
    );
  };
}
