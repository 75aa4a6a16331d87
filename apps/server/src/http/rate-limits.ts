import { DOT_TEST_API, MEDIA_UPLOAD_PATH, RESPONDENT_API, SESSION_COOKIE } from '@emolens/contracts';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { hashToken } from '../modules/auth/tokens.ts';
import { AppError } from './errors.ts';
import type { RateLimitCountersRepository } from './rate-limit-counters.repository.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';

const WINDOW_MS = 60_000;
/** What randomToken() makes for a session cookie: 32 bytes in base64url. */
const SESSION_TOKEN = /^[\w-]{43}$/;

type Limits = Pick<
  Config,
  | 'rateLimitPerMinute'
  | 'addressRateLimitPerMinute'
  | 'uploadRateLimitPerMinute'
  | 'publicRateLimitPerMinute'
  | 'respondentRateLimitPerMinute'
  | 'respondentAddressRateLimitPerMinute'
  | 'linkSessionsPerMinute'
  | 'dotTestStartsPerHour'
>;

function tooManyRequests(ttlMs: number): AppError {
  return new AppError('too_many_requests', { retryAfter: Math.max(1, Math.ceil(ttlMs / 1000)) });
}

/**
 * The address a client is counted under: IPv4 as is, IPv6 by its /64 (one subscriber gets a whole
 * /64, so counting single IPv6 addresses would hand an attacker 2^64 fresh ones).
 */
export const addressKey = (ip: string) => normalizeIP(ip);

const addressOf = (request: FastifyRequest) => addressKey(request.ip);

/**
 * Who is counted for the per-client limits: the session when the request carries a session cookie of
 * the right shape, otherwise the address. The cookie is not looked up (that would cost the database a
 * query before any limit applies), so an attacker can invent cookies; the per-address limit that every
 * such request also counts against is what stops that, and it is sized for an office behind one NAT.
 */
function clientOf(request: FastifyRequest): string {
  const token = request.cookies[SESSION_COOKIE];
  return token && SESSION_TOKEN.test(token) ? `session:${hashToken(token)}` : `address:${addressOf(request)}`;
}

/** What randomToken(32) makes for a respondent session secret, sent as `Authorization: Bearer`. */
const RESPONDENT_BEARER = /^Bearer ([\w-]{43})$/;

/**
 * A respondent is counted by their session (the hash of the bearer secret, not looked up, like the
 * cabinet's cookie), otherwise by address; the per-address limit every request also counts against
 * stops invented secrets, and is sized for many respondents of a panel behind one NAT.
 */
function respondentOf(request: FastifyRequest): string {
  const secret = RESPONDENT_BEARER.exec(request.headers.authorization ?? '')?.[1];
  return secret ? `respondent:${hashToken(secret)}` : `address:${addressOf(request)}`;
}

/** Session starts are also counted per quota link, whoever starts them (a link posted in public). */
const SESSION_START_ROUTE = `${RESPONDENT_API}/links/:token/sessions`;
function linkOf(request: FastifyRequest): string {
  const token = (request.params as { token?: unknown } | undefined)?.token;
  return `link:${typeof token === 'string' ? token.slice(0, 128) : ''}`;
}

/**
 * Rate limits for every surface. On PostgreSQL they are counted in the database, so that every API process
 * counts in the same counters and N processes allow each limit once (decision 069); on the embedded database,
 * whose one process is the only API, in this process's memory. Login throttling (decision 007) is apart.
 *
 * - the cabinet API (/api): per client and per address;
 * - uploads (/mediaserver): per client, with their own limit (a video is many chunk requests), and
 *   per address, counted together with the API;
 * - the respondent API (/r/): per respondent session and per address, with limits of its own (a
 *   respondent sends a recording chunk every 2 seconds); starting a session also per quota link;
 *   starting a setup check (/dot-test, anyone) also per address and hour, since each keeps a recording;
 * - everything else (the web app's files, engine assets, /healthz, unknown paths): per address.
 *
 * The surface is told by the matched route, not by the raw path, so no spelling of a path moves a
 * request to another surface. Login has a stricter per-address limit of its own (its route's
 * `config.rateLimit`), which the plugin registered here applies.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: Limits,
  shared?: { counters: RateLimitCountersRepository; log: Logger },
): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    timeWindow: WINDOW_MS,
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl),
    ...(shared ? { store: databaseRateLimitStore(shared.counters, shared.log) } : {}),
  });
  /**
   * A limit with its own counters, named: each limit counts apart from the others (as each had its own memory
   * store before they were shared through the database), the per-address one of /api and uploads together.
   */
  const limiter = (
    name: string,
    max: number,
    keyOf: (request: FastifyRequest) => string,
    timeWindow: number = WINDOW_MS,
  ) => app.createRateLimit({ max, timeWindow, keyGenerator: (request) => `${name}:${keyOf(request)}` });
  const perAddress = limiter('address', config.addressRateLimitPerMinute, addressOf);
  const surfaces = {
    api: [limiter('api', config.rateLimitPerMinute, clientOf), perAddress],
    upload: [limiter('upload', config.uploadRateLimitPerMinute, clientOf), perAddress],
    public: [limiter('public', config.publicRateLimitPerMinute, addressOf)],
    respondent: [
      limiter('respondent', config.respondentRateLimitPerMinute, respondentOf),
      limiter('respondent-address', config.respondentAddressRateLimitPerMinute, addressOf),
    ],
    dotTestStart: [
      limiter('dot-test-respondent', config.respondentRateLimitPerMinute, respondentOf),
      limiter('dot-test-address', config.respondentAddressRateLimitPerMinute, addressOf),
      limiter('dot-test-start', config.dotTestStartsPerHour, addressOf, 3_600_000),
    ],
    sessionStart: [
      limiter('session-start-respondent', config.respondentRateLimitPerMinute, respondentOf),
      limiter('session-start-address', config.respondentAddressRateLimitPerMinute, addressOf),
      limiter('session-start-link', config.linkSessionsPerMinute, linkOf),
    ],
  };

  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? '';
    const limits = route.startsWith('/api/')
      ? surfaces.api
      : route === MEDIA_UPLOAD_PATH || route.startsWith(`${MEDIA_UPLOAD_PATH}/`)
        ? surfaces.upload
        : route === SESSION_START_ROUTE
          ? surfaces.sessionStart
          : route === DOT_TEST_API && request.method === 'POST'
            ? surfaces.dotTestStart
            : route.startsWith(`${RESPONDENT_API}/`)
              ? surfaces.respondent
              : surfaces.public;
    for (const limit of limits) {
      const result = await limit(request);
      if (!result.isAllowed && result.isExceeded) throw tooManyRequests(result.ttl);
    }
  });
}
