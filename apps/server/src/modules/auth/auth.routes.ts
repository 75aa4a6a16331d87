import { loginInput, okOutput, userDataOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { clearSessionCookie, setSessionCookie } from '../../http/security.ts';
import { toUserData } from '../users/users.service.ts';
import { login } from './auth.service.ts';
import { sessionApiToken } from './tokens.ts';

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = { config: ctx.config, auth: ctx.repos.auth, users: ctx.repos.users, log: ctx.log };
  return async (app) => {
    app.get(
      '/auth/csrf/',
      { schema: { tags: ['auth'], summary: 'Sets the CSRF cookie', response: { 200: okOutput } } },
      async () => ({ ok: true as const }),
    );

    app.post(
      '/auth/login/',
      {
        schema: {
          tags: ['auth'],
          summary: 'Logs in and starts a session',
          body: loginInput,
          response: { 200: userDataOutput },
        },
        config: { rateLimit: { max: ctx.config.loginRateLimitPerMinute, timeWindow: '1 minute' } },
      },
      async (request, reply) => {
        const result = await login(deps, request.body, {
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        });
        setSessionCookie(ctx, reply, result.token, result.expiresAt);
        request.log.info({ userId: result.user.id }, 'user logged in');
        return toUserData(result.user, sessionApiToken(ctx.secret, result.sessionId));
      },
    );

    app.post(
      '/auth/logout/',
      { schema: { tags: ['auth'], summary: 'Ends the current session', response: { 200: okOutput } } },
      async (request, reply) => {
        if (request.auth) await ctx.repos.auth.deleteSession(request.auth.sessionId);
        clearSessionCookie(ctx, reply);
        return { ok: true as const };
      },
    );
  };
}
