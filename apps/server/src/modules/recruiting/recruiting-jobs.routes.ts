import { RECRUITING_PLATFORM_CONTRACTS, RECRUITING_PLATFORMS } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { publicOrigin } from '../../http/public-url.ts';
import { currentUser } from '../../http/security.ts';
import { actOnRecruitingJob, createRecruitingJob, recruitingJob } from './recruiting-jobs.service.ts';

const idParams = z.object({ id: z.string().max(64) });

/** What each action does, as the API documentation says it. */
const ACTION_SUMMARY: Record<string, string> = {
  open: 'Runs (opens) the pool',
  close: 'Stops (closes) the pool',
  expire: 'Stops offering the HIT (expires it); submitted assignments can still be reviewed',
};

/**
 * A research's pool or HIT on each recruiting platform of RECRUITING_PLATFORM_CONTRACTS, under
 * `/cabinet/campaigns/:id/{platform}/`: its state, making it, and its actions. Each answer is the state after.
 */
export function recruitingJobsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    for (const platform of RECRUITING_PLATFORMS) {
      const contract = RECRUITING_PLATFORM_CONTRACTS[platform];
      const base = `/cabinet/campaigns/:id/${platform}/`;
      const tags = [platform];
      const output = contract.output;
      app.get(
        base,
        {
          schema: {
            tags,
            summary: `The research's ${contract.job} on ${contract.name} as ${contract.name} reports it, the balance, and what can be done`,
            params: idParams,
            response: { 200: output },
          },
        },
        async (request) =>
          recruitingJob(
            deps,
            currentUser(request).user,
            platform,
            request.params.id,
            publicOrigin(ctx.config, request),
          ),
      );
      app.post(
        base,
        {
          schema: {
            tags,
            summary: `Makes the ${contract.job} of the research on ${contract.name}, with its quota link as the task`,
            params: idParams,
            body: contract.create,
            response: { 201: output },
          },
        },
        async (request, reply) => {
          const user = currentUser(request).user;
          const origin = publicOrigin(ctx.config, request);
          await createRecruitingJob(
            deps,
            user,
            platform,
            request.params.id,
            request.body as Record<string, unknown>,
            origin,
          );
          return reply.status(201).send(await recruitingJob(deps, user, platform, request.params.id, origin));
        },
      );
      for (const action of contract.actions) {
        app.post(
          `${base}${action}/`,
          {
            schema: {
              tags,
              summary: ACTION_SUMMARY[action] ?? action,
              params: idParams,
              response: { 200: output },
            },
          },
          async (request) => {
            const user = currentUser(request).user;
            await actOnRecruitingJob(deps, user, platform, request.params.id, action);
            return recruitingJob(deps, user, platform, request.params.id, publicOrigin(ctx.config, request));
          },
        );
      }
    }
  };
}
