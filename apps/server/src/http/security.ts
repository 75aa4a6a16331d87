import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@emolens/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { User } from '../db/types.ts';
import { authenticateToken } from '../modules/api-access/api-access.service.ts';
import { resolveSession } from '../modules/auth/auth.service.ts';
import { randomToken, safeEqual } from '../modules/auth/tokens.ts';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: { user: User; sessionId: string } | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The cabinet API operations open without a login, as `METHOD /url`. Every other operation of the
 * scope answers 401 to a request without a session, before its body, query or path is looked at.
 */
export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set([
  'GET /api/auth/csrf/',
  'POST /api/auth/login/',
  'POST /api/auth/logout/',
  'GET /api/auth/sso/',
  'GET /api/auth/sso/start/',
  'GET /api/auth/sso/callback/',
  'GET /api/public/benchmark-base/',
  'POST /api/public/access-requests/',
]);

function isPublic(request: FastifyRequest): boolean {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return PUBLIC_OPERATIONS.has(`${method} ${request.routeOptions.url}`);
}

export function cookieOptions(ctx: AppContext, httpOnly: boolean) {
  return { path: '/', sameSite: 'lax' as const, secure: ctx.config.cookieSecure, httpOnly };
}

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(ctx, true), expires });
}

export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(ctx, true));
}

/**
 * Cabinet API security, for every route of the scope it is registered in:
 * double-submit CSRF (a cookie the SPA reads, echoed in a header on every unsafe call), the
 * server-side session behind the httpOnly session cookie, and a login for all but the public
 * operations. It runs on request, so it comes before parsing and validation.
 */
export function registerCabinetSecurity(api: FastifyInstance, ctx: AppContext): void {
  api.decorateRequest('auth', null);
  api.addHook('onRequest', async (request, reply) => {
    const cookie = request.cookies[CSRF_COOKIE];
    if (!SAFE_METHODS.has(request.method)) {
      const header = request.headers[CSRF_HEADER];
      if (!cookie || typeof header !== 'string' || !safeEqual(cookie, header)) throw new AppError('csrf_failed');
    } else if (!cookie) {
      reply.setCookie(CSRF_COOKIE, randomToken(), { ...cookieOptions(ctx, false), maxAge: 365 * 24 * 3600 });
    }
    const token = request.cookies[SESSION_COOKIE];
    if (token) {
      request.auth = (await resolveSession(ctx.deps, token)) ?? null;
      if (!request.auth) clearSessionCookie(ctx, reply);
    }
    if (!request.auth && !isPublic(request)) throw new AppError('unauthorized');
  });
}

export function currentUser(request: FastifyRequest): { user: User; sessionId: string } {
  if (!request.auth) throw new AppError('unauthorized');
  return request.auth;
}

/**
 * The report builder's API security (spec section 7): every request carries `Authorization: Token …`, a personal
 * API token of the report-builder scope or the session's `auth_token` of the user data; no cookie, so no CSRF.
 * It runs on request, before parsing and validation.
 */
export function registerTokenSecurity(api: FastifyInstance, ctx: AppContext): void {
  api.decorateRequest('auth', null);
  api.addHook('onRequest', async (request) => {
    request.auth = await authenticateToken(ctx.deps, ctx.secret, request.headers.authorization);
  });
}
