import { createTolokaPoolInput, tolokaPoolOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { publicOrigin } from '../../http/public-url.ts';
import { currentUser } from '../../http/security.ts';
import { closeTolokaPool, createTolokaPool, openTolokaPool, tolokaPool } from './toloka-pools.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const tags = ['toloka'];

/** A research's Toloka pool: its state, making it, running and stopping it. Each answer is the state after. */
export function tolokaPoolsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/cabinet/campaigns/:id/toloka/',
      {
        schema: {
          tags,
          summary: "The research's Toloka pool as Toloka reports it, the balance, and what can be done",
          params: idParams,
          response: { 200: tolokaPoolOutput },
        },
      },
      async (request) =>
        tolokaPool(deps, currentUser(request).user, request.params.id, publicOrigin(ctx.config, request)),
    );
    app.post(
      '/cabinet/campaigns/:id/toloka/',
      {
        schema: {
          tags,
          summary: 'Makes the Toloka project and pool of the research (closed), with its quota link as the task',
          params: idParams,
          body: createTolokaPoolInput,
          response: { 201: tolokaPoolOutput },
        },
      },
      async (request, reply) => {
        const user = currentUser(request).user;
        const origin = publicOrigin(ctx.config, request);
        await createTolokaPool(deps, user, request.params.id, request.body, origin);
        return reply.status(201).send(await tolokaPool(deps, user, request.params.id, origin));
      },
    );
    for (const action of ['open', 'close'] as const) {
      app.post(
        `/cabinet/campaigns/:id/toloka/${action}/`,
        {
          schema: {
            tags,
            summary: action === 'open' ? 'Runs (opens) the pool' : 'Stops (closes) the pool',
            params: idParams,
            response: { 200: tolokaPoolOutput },
          },
        },
        async (request) => {
          const user = currentUser(request).user;
          await (action === 'open' ? openTolokaPool : closeTolokaPool)(deps, user, request.params.id);
          return tolokaPool(deps, user, request.params.id, publicOrigin(ctx.config, request));
        },
      );
    }
  };
}
