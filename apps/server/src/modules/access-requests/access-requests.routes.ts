import { accessRequestInput, accessRequestsOutput, convertAccessRequestOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { addressKey } from '../../http/rate-limits.ts';
import { currentUser } from '../../http/security.ts';
import { convertAccessRequest, listAccessRequests, requestAccess } from './access-requests.service.ts';

const tags = ['access-requests'];
const idParams = z.object({ id: z.string().max(64) });

/** Requests for access: the public form, and staff's list and conversion into an account (issue 28, item 16). */
export function accessRequestsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.post(
      '/public/access-requests/',
      {
        // Anyone may send it: ACCESS_REQUESTS_PER_HOUR per address (counted like every other limit, decision 069).
        config: {
          rateLimit: {
            max: ctx.config.accessRequestsPerHour,
            timeWindow: '1 hour',
            keyGenerator: (request) => `access-request:${addressKey(request.ip)}`,
          },
        },
        schema: {
          tags,
          summary: 'Asks for access: name, company, e-mail, package and a message (no login)',
          body: accessRequestInput,
          response: { 201: z.object({ id: z.uuid() }) },
        },
      },
      async (request, reply) => reply.status(201).send(await requestAccess(deps, request.body)),
    );
    app.get(
      '/cabinet/access-requests/',
      {
        schema: { tags, summary: 'Requests for access, new first (staff)', response: { 200: accessRequestsOutput } },
      },
      async (request) => listAccessRequests(deps, currentUser(request).user),
    );
    app.post(
      '/cabinet/access-requests/:id/account/',
      {
        schema: {
          tags,
          summary: 'Makes the customer account of a new request and marks it done; the password is shown once (staff)',
          params: idParams,
          response: { 201: convertAccessRequestOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await convertAccessRequest(deps, currentUser(request).user, request.params.id)),
    );
  };
}
