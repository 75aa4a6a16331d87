import { apiTokenListOutput, createApiTokenInput, createdApiTokenOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { createApiToken, listApiTokens, revokeApiToken } from './api-access.service.ts';

const tags = ['api-access'];

/** The user's personal API tokens (cabinet: session and CSRF). */
export function apiAccessRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/users/api-access/tokens/',
      {
        schema: {
          tags,
          summary: "The user's API tokens (never the tokens themselves)",
          response: { 200: apiTokenListOutput },
        },
      },
      async (request) => listApiTokens(deps, currentUser(request).user),
    );
    app.post(
      '/users/api-access/access-api-token/',
      {
        schema: {
          tags,
          summary: 'Makes an API token, or rotates one (`replace`); the answer is the only place the token appears',
          body: createApiTokenInput,
          response: { 201: createdApiTokenOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createApiToken(deps, currentUser(request).user, request.body)),
    );
    app.delete(
      '/users/api-access/tokens/:id/',
      {
        schema: {
          tags,
          summary: 'Revokes an API token: it stops working at once',
          params: z.object({ id: z.uuid() }),
        },
      },
      async (request, reply) => {
        await revokeApiToken(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
  };
}
