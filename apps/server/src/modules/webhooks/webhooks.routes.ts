import {
  createdWebhookEndpointOutput,
  createWebhookEndpointInput,
  updateWebhookEndpointInput,
  webhookAttemptListOutput,
  webhookEndpointListOutput,
  webhookEndpointSchema,
  webhookTestOutput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listAttempts,
  listEndpoints,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
} from './webhooks.service.ts';

const tags = ['webhooks'];
const params = z.object({ id: z.uuid() });

/** The account's webhook endpoints (cabinet: session and CSRF; decision 066). */
export function webhooksRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/users/webhooks/endpoints/',
      {
        schema: {
          tags,
          summary: "The account's webhook endpoints (never their secrets) and the event types to choose from",
          response: { 200: webhookEndpointListOutput },
        },
      },
      async (request) => listEndpoints(deps, currentUser(request).user),
    );
    app.post(
      '/users/webhooks/endpoints/',
      {
        schema: {
          tags,
          summary: 'Makes a webhook endpoint; the answer is the only place its signing secret appears',
          body: createWebhookEndpointInput,
          response: { 201: createdWebhookEndpointOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createEndpoint(deps, currentUser(request).user, request.body)),
    );
    app.patch(
      '/users/webhooks/endpoints/:id/',
      {
        schema: {
          tags,
          summary: "Changes an endpoint's address, description, event types, or enables or disables it",
          params,
          body: updateWebhookEndpointInput,
          response: { 200: webhookEndpointSchema },
        },
      },
      async (request) => updateEndpoint(deps, currentUser(request).user, request.params.id, request.body),
    );
    app.delete(
      '/users/webhooks/endpoints/:id/',
      { schema: { tags, summary: 'Deletes an endpoint with its delivery log', params } },
      async (request, reply) => {
        await deleteEndpoint(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      '/users/webhooks/endpoints/:id/rotate-secret/',
      {
        schema: {
          tags,
          summary: "Replaces an endpoint's signing secret at once; the answer is the only place the new one appears",
          params,
          response: { 200: createdWebhookEndpointOutput },
        },
      },
      async (request) => rotateSecret(deps, currentUser(request).user, request.params.id),
    );
    app.get(
      '/users/webhooks/endpoints/:id/deliveries/',
      {
        schema: {
          tags,
          summary: "The endpoint's delivery log: each attempt, newest first",
          params,
          response: { 200: webhookAttemptListOutput },
        },
      },
      async (request) => listAttempts(deps, currentUser(request).user, request.params.id),
    );
    app.post(
      '/users/webhooks/endpoints/:id/test/',
      {
        schema: {
          tags,
          summary: 'Sends the endpoint a `webhook.test` event, delivered and logged like any other',
          params,
          response: { 202: webhookTestOutput },
        },
      },
      async (request, reply) =>
        reply.status(202).send(await sendTestEvent(deps, currentUser(request).user, request.params.id)),
    );
  };
}
