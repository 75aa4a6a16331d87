import { type SsoError, ssoCallbackQuery, ssoConfigOutput, ssoStartQuery } from '@emolens/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { publicOrigin } from '../../http/public-url.ts';
import { addressKey } from '../../http/rate-limits.ts';
import { cookieOptions, setSessionCookie } from '../../http/security.ts';
import { startSession } from '../auth/auth.service.ts';
import { FLOW_COOKIE, FLOW_COOKIE_PATH, FLOW_TTL_MS, openFlow, sealFlow } from './flow-cookie.ts';
import { SsoFlowError } from './oidc-client.ts';
import { resolveSsoUser, SsoRefusal } from './sso.service.ts';

const tags = ['auth'];
export const SSO_CALLBACK_PATH = '/api/auth/sso/callback/';
const DEFAULT_NEXT = '/cabinet/projects';

/** Only paths of this site may be gone on to (the login page's own rule). */
function safeNext(next: string | undefined): string {
  return next?.startsWith('/') && !next.startsWith('//') && !next.includes('\\') ? next : DEFAULT_NEXT;
}

/**
 * Single sign-on (decision 067): the login page's button config, the redirect to the provider, and its answer. Both
 * redirects are full-page navigations, so a refusal goes back to the login page with `sso_error`, never as JSON.
 */
export function ssoRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { deps, config } = ctx;
  const client = deps.ssoClient;
  const rateLimit = {
    max: config.loginRateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => `sso:${addressKey(request.ip)}`,
  };
  const flowCookie = { ...cookieOptions(ctx, true), path: FLOW_COOKIE_PATH };
  const refuse = (reply: FastifyReply, reason: SsoError) =>
    reply.redirect(`/login?${new URLSearchParams({ sso_error: reason })}`, 302);

  return async (app) => {
    app.get(
      '/auth/sso/',
      {
        schema: {
          tags,
          summary: 'Whether the login page offers single sign-on, and the button text',
          response: { 200: ssoConfigOutput },
        },
      },
      async () => ({ enabled: client !== undefined, label: config.sso?.buttonLabel ?? null }),
    );

    app.get(
      '/auth/sso/start/',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: "Sends the browser to the provider's sign-in (authorization code with PKCE, state and nonce)",
          querystring: ssoStartQuery,
        },
      },
      async (request, reply) => {
        if (!client) return refuse(reply, 'unavailable');
        try {
          const redirectUri = `${publicOrigin(config, request)}${SSO_CALLBACK_PATH}`;
          const { url, checks } = await client.begin(redirectUri);
          const flow = {
            ...checks,
            next: safeNext(request.query.next),
            ...(request.query.lang ? { lang: request.query.lang } : {}),
            expiresAt: Date.now() + FLOW_TTL_MS,
          };
          reply.setCookie(FLOW_COOKIE, sealFlow(ctx.secret, flow), { ...flowCookie, maxAge: FLOW_TTL_MS / 1000 });
          return reply.header('cache-control', 'no-store').redirect(url.href, 302);
        } catch (err) {
          if (err instanceof SsoFlowError) return refuse(reply, err.reason);
          throw err;
        }
      },
    );

    app.get(
      '/auth/sso/callback/',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary: "The provider's answer: signs in (the session cookie) and goes on, or back to the login page",
          querystring: ssoCallbackQuery,
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        // Used once, whatever happens next.
        const flow = openFlow(ctx.secret, request.cookies[FLOW_COOKIE]);
        reply.clearCookie(FLOW_COOKIE, flowCookie);
        if (!client || !config.sso) return refuse(reply, 'unavailable');
        if (!flow) {
          request.log.warn('single sign-on: the answer came without a valid flow cookie');
          return refuse(reply, 'failed');
        }
        try {
          // The answer's parameters on the redirect URI exactly as registered (the router also takes it without the slash).
          const currentUrl = new URL(request.url, publicOrigin(config, request));
          currentUrl.pathname = SSO_CALLBACK_PATH;
          const identity = await client.finish(currentUrl, flow);
          const user = await resolveSsoUser({ sso: deps.sso, log: request.log }, config.sso, identity, {
            ...(flow.lang ? { language: flow.lang } : {}),
          });
          const session = await startSession(deps, user, {
            ip: request.ip,
            userAgent: request.headers['user-agent'] ?? null,
          });
          setSessionCookie(ctx, reply, session.token, session.expiresAt);
          request.log.info({ userId: user.id }, 'user logged in through single sign-on');
          return reply.redirect(flow.next, 302);
        } catch (err) {
          if (err instanceof SsoRefusal) {
            request.log.info({ reason: err.reason }, 'single sign-on refused');
            return refuse(reply, err.reason);
          }
          if (err instanceof SsoFlowError) {
            const cause = err.cause as { code?: unknown; error?: unknown; message?: unknown } | undefined;
            request.log.warn(
              { reason: err.reason, cause: { code: cause?.code, error: cause?.error, message: cause?.message } },
              `single sign-on failed: ${err.message}`,
            );
            return refuse(reply, err.reason);
          }
          throw err;
        }
      },
    );
  };
}
