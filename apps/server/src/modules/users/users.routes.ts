import { setLanguageInput, userDataOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { sessionApiToken } from '../auth/tokens.ts';
import { toUserData } from './users.service.ts';

export function usersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/users/user-data/',
      {
        schema: { tags: ['users'], summary: 'The logged-in user', response: { 200: userDataOutput } },
      },
      async (request) => {
        const { user, sessionId } = currentUser(request);
        return toUserData(user, sessionApiToken(ctx.secret, sessionId));
      },
    );

    app.patch(
      '/users/user-data/language/',
      {
        schema: {
          tags: ['users'],
          summary: "Stores the user's interface language",
          body: setLanguageInput,
          response: { 200: userDataOutput },
        },
      },
      async (request) => {
        const { user, sessionId } = currentUser(request);
        await ctx.deps.users.update(user.id, { current_lang: request.body.current_lang });
        return toUserData({ ...user, current_lang: request.body.current_lang }, sessionApiToken(ctx.secret, sessionId));
      },
    );
  };
}
