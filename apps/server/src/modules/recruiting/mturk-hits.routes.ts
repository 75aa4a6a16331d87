import { createMturkHitInput, mturkHitOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { publicOrigin } from '../../http/public-url.ts';
import { currentUser } from '../../http/security.ts';
import { createMturkHit, expireMturkHit, mturkHit } from './mturk-hits.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const tags = ['mturk'];

/** A research's MTurk HIT: its state, making it, and stopping it. Each answer is the state after. */
export function mturkHitsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/cabinet/campaigns/:id/mturk/',
      {
        schema: {
          tags,
          summary: "The research's MTurk HIT as MTurk reports it, the balance, and what can be done",
          params: idParams,
          response: { 200: mturkHitOutput },
        },
      },
      async (request) =>
        mturkHit(deps, currentUser(request).user, request.params.id, publicOrigin(ctx.config, request)),
    );
    app.post(
      '/cabinet/campaigns/:id/mturk/',
      {
        schema: {
          tags,
          summary: 'Makes the HIT of the research (an ExternalQuestion framing its quota link), offered at once',
          params: idParams,
          body: createMturkHitInput,
          response: { 201: mturkHitOutput },
        },
      },
      async (request, reply) => {
        const user = currentUser(request).user;
        const origin = publicOrigin(ctx.config, request);
        await createMturkHit(deps, user, request.params.id, request.body, origin);
        return reply.status(201).send(await mturkHit(deps, user, request.params.id, origin));
      },
    );
    app.post(
      '/cabinet/campaigns/:id/mturk/expire/',
      {
        schema: {
          tags,
          summary: 'Stops offering the HIT (expires it); submitted assignments can still be reviewed',
          params: idParams,
          response: { 200: mturkHitOutput },
        },
      },
      async (request) => {
        const user = currentUser(request).user;
        await expireMturkHit(deps, user, request.params.id);
        return mturkHit(deps, user, request.params.id, publicOrigin(ctx.config, request));
      },
    );
  };
}
