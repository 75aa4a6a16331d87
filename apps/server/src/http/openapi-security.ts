import type { FastifyInstance, RouteOptions } from 'fastify';
import { REPORT_BUILDER_PREFIX } from '../modules/api-access/report-builder.routes.ts';
import { PUBLIC_OPERATIONS } from './security.ts';

/**
 * What each operation of the OpenAPI document takes, in one place for the whole API, by the surface its URL is on
 * (the same surfaces `app.ts` registers with their own security hooks): a generated client knows from the document
 * which credentials to send with every call.
 *
 * - Cabinet (`/api`): the session cookie, and the CSRF header on every unsafe method; the public operations take
 *   only the CSRF header (unsafe) or nothing.
 * - Report builder (`/report_builder/api`): a personal API token, `Authorization: Token <token>`.
 * - Respondent (`/r`): a respondent session's or a dot test's calls (`/r/sessions/{id}…`, `/r/dot-tests/{id}…`)
 *   take the session's secret as a bearer token; the rest (a link's page, signed content URLs, public
 *   statistics) nothing.
 * - Anything else (`/healthz`): nothing.
 */
export const SECURITY_SCHEMES = {
  session: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
  csrf: { type: 'apiKey', in: 'header', name: 'X-CSRFToken' },
  respondentSecret: { type: 'http', scheme: 'bearer' },
  apiToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Report builder API: `Token <token>`, a personal API token (Cabinet → API access).',
  },
} as const;

type Scheme = keyof typeof SECURITY_SCHEMES;
/** One OpenAPI security requirement: all of its schemes together. `[]`: the operation takes none. */
export type SecurityRequirement = Partial<Record<Scheme, string[]>>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const RESPONDENT_SESSION = /^\/r\/(sessions|dot-tests)\/:id(\/|$)/;

/** The security of the operation `method url` (a full URL, prefixes included, as Fastify names the route). */
export function operationSecurity(method: string, url: string): SecurityRequirement[] {
  const unsafe = !SAFE_METHODS.has(method);
  if (url.startsWith('/api/')) {
    if (PUBLIC_OPERATIONS.has(`${method} ${url}`)) return unsafe ? [{ csrf: [] }] : [];
    return [unsafe ? { session: [], csrf: [] } : { session: [] }];
  }
  if (url.startsWith(`${REPORT_BUILDER_PREFIX}/`)) return [{ apiToken: [] }];
  if (RESPONDENT_SESSION.test(url)) return [{ respondentSecret: [] }];
  return [];
}

/**
 * Gives every route's schema its operation's security as it is added (before the OpenAPI plugin reads it). A route
 * does not state its own: this is the one place, so a route that states another is refused at startup.
 */
export function registerOperationSecurity(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as (Record<string, unknown> & { security?: unknown }) | undefined;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // A route of several methods (tus's, hidden from the document) is as strict as its least safe one.
    const method = methods.find((m) => !SAFE_METHODS.has(m)) ?? methods[0] ?? 'GET';
    const security = operationSecurity(method, route.url);
    // The HEAD route Fastify adds beside a GET carries the GET's schema, security included.
    if (schema?.security !== undefined && JSON.stringify(schema.security) !== JSON.stringify(security)) {
      throw new Error(`${route.url}: the security of every operation is set in http/openapi-security.ts`);
    }
    route.schema = { ...schema, security };
  });
}
