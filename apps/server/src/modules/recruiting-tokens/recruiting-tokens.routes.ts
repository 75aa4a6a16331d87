import {
  RECRUITING_PLATFORM_CONTRACTS,
  RECRUITING_PLATFORMS,
  recruitingTokenListOutput,
  recruitingTokenSchema,
  recruitingTokensQuery,
  shareRecruitingTokenInput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import {
  activateRecruitingToken,
  deleteRecruitingToken,
  linkRecruitingToken,
  listRecruitingTokens,
  revokeRecruitingTokenShare,
  shareRecruitingToken,
} from './recruiting-tokens.service.ts';

const tags = ['recruiting tokens'];
const BASE = '/cabinet/recruiting-tokens';
const byId = z.object({ id: z.uuid() });
type LinkInput = Parameters<typeof linkRecruitingToken>[3];

/** Toloka and Amazon tokens (cabinet: session and CSRF). No answer ever carries a secret. */
export function recruitingTokensRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      `${BASE}/`,
      {
        schema: {
          tags,
          summary: "The user's tokens of a service and those shared with them (hints only, never the secrets)",
          querystring: recruitingTokensQuery,
          response: { 200: recruitingTokenListOutput },
        },
      },
      async (request) => listRecruitingTokens(deps, currentUser(request).user, request.query.service),
    );
    for (const platform of RECRUITING_PLATFORMS) {
      const { name, linkToken } = RECRUITING_PLATFORM_CONTRACTS[platform];
      app.post(
        `${BASE}/${platform}/`,
        {
          schema: {
            tags,
            summary: `Links a ${name} token once ${name} accepts it; the first one becomes active`,
            body: linkToken,
            response: { 201: recruitingTokenSchema },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(await linkRecruitingToken(deps, currentUser(request).user, platform, request.body as LinkInput)),
      );
    }
    app.post(
      `${BASE}/:id/activate/`,
      {
        schema: {
          tags,
          summary: "Makes the token (own or shared) the user's active one of its service",
          params: byId,
        },
      },
      async (request, reply) => {
        await activateRecruitingToken(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
    app.delete(
      `${BASE}/:id/`,
      {
        schema: { tags, summary: "Deletes the owner's token; not while it is shared", params: byId },
      },
      async (request, reply) => {
        await deleteRecruitingToken(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      `${BASE}/:id/shares/`,
      {
        schema: {
          tags,
          summary: 'Shares the token with a user, by their public id',
          params: byId,
          body: shareRecruitingTokenInput,
        },
      },
      async (request, reply) => {
        await shareRecruitingToken(deps, currentUser(request).user, request.params.id, request.body);
        return reply.status(204).send();
      },
    );
    app.delete(
      `${BASE}/:id/shares/:publicUserId/`,
      {
        schema: {
          tags,
          summary: 'Revokes a share; not while that user has the token active',
          params: byId.extend({ publicUserId: z.string().trim().min(1).max(32) }),
        },
      },
      async (request, reply) => {
        await revokeRecruitingTokenShare(
          deps,
          currentUser(request).user,
          request.params.id,
          request.params.publicUserId,
        );
        return reply.status(204).send();
      },
    );
  };
}
