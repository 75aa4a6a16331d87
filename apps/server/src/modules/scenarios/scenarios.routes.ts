import {
  accessorLinkOutput,
  createAccessorLinkInput,
  createScenarioInput,
  reorderScenariosInput,
  scenarioListOutput,
  scenarioOutput,
  setFaceCheckerInput,
  setPaymentInput,
  setQuotaSizeInput,
  setScreenerFirstInput,
  updateScenarioInput,
} from '@emolens/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { publicOrigin } from '../../http/public-url.ts';
import { currentUser } from '../../http/security.ts';
import {
  createAccessorLink,
  createScenario,
  deleteScenario,
  displayOrderCsv,
  duplicateScenario,
  getAccessorLink,
  listAccessorLinks,
  listScenarios,
  reorderScenarios,
  setAccessorLinkOption,
  updateScenario,
} from './scenarios.service.ts';

const idParams = z.object({ id: z.string().max(64) });

/** The PATCH endpoints of spec section 7, one option each. */
const LINK_OPTIONS = [
  ['set-quota-size', setQuotaSizeInput],
  ['set-face-checker-option', setFaceCheckerInput],
  ['set-payment-option', setPaymentInput],
  ['set-screener-first-option', setScreenerFirstInput],
] as const;

export function scenariosRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  const origin = (request: FastifyRequest) => publicOrigin(ctx.config, request);
  return async (app) => {
    const tags = ['scenarios'];

    app.get(
      '/cabinet/projects/:id/scenarios/',
      {
        schema: {
          tags,
          summary: "A project's scenarios in order",
          params: idParams,
          response: { 200: scenarioListOutput },
        },
      },
      async (request) => ({ items: await listScenarios(deps, currentUser(request).user, request.params.id) }),
    );
    app.post(
      '/cabinet/projects/:id/scenarios/',
      {
        schema: {
          tags,
          summary: 'Adds a scenario at the end',
          params: idParams,
          body: createScenarioInput,
          response: { 201: scenarioOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createScenario(deps, currentUser(request).user, request.params.id, request.body)),
    );
    app.post(
      '/cabinet/projects/:id/scenarios/reorder/',
      {
        schema: {
          tags,
          summary: 'Puts the scenarios in the given order',
          params: idParams,
          body: reorderScenariosInput,
          response: { 200: scenarioListOutput },
        },
      },
      async (request) => ({
        items: await reorderScenarios(deps, currentUser(request).user, request.params.id, request.body.order),
      }),
    );
    app.patch(
      '/cabinet/scenarios/:id/',
      {
        schema: {
          tags,
          summary: 'Edits a scenario; 409 when changed since `updated_at`',
          params: idParams,
          body: updateScenarioInput,
          response: { 200: scenarioOutput },
        },
      },
      async (request) => updateScenario(deps, currentUser(request).user, request.params.id, request.body),
    );
    app.delete(
      '/cabinet/scenarios/:id/',
      { schema: { tags, summary: 'Deletes a scenario', params: idParams } },
      async (request, reply) => {
        await deleteScenario(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      '/cabinet/scenarios/:id/duplicate/',
      {
        schema: {
          tags,
          summary: 'Copies a scenario to the end of the order',
          params: idParams,
          response: { 201: scenarioOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await duplicateScenario(deps, currentUser(request).user, request.params.id)),
    );
    app.get(
      '/cabinet/scenarios/:id/display-order/',
      { schema: { tags, summary: "Download the scenario's research display order (CSV)", params: idParams } },
      async (request, reply) => {
        const csv = await displayOrderCsv(deps, currentUser(request).user, request.params.id);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="scenario-${request.params.id}-display-order.csv"`)
          .send(csv);
      },
    );

    const linkTags = ['quota links'];
    app.get(
      '/cabinet/projects/:id/project-accessor-links/',
      {
        schema: {
          tags: linkTags,
          summary: "A project's quota links",
          params: idParams,
          response: { 200: z.object({ items: z.array(accessorLinkOutput) }) },
        },
      },
      async (request) => ({
        items: await listAccessorLinks(deps, currentUser(request).user, request.params.id, origin(request)),
      }),
    );
    app.post(
      '/cabinet/scenarios/:id/project-accessor-links/',
      {
        schema: {
          tags: linkTags,
          summary: 'Creates a quota link for a scenario',
          params: idParams,
          body: createAccessorLinkInput,
          response: { 201: accessorLinkOutput },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await createAccessorLink(deps, currentUser(request).user, request.params.id, request.body, origin(request)),
          ),
    );
    app.get(
      '/cabinet/project-accessor-links/:id/',
      {
        schema: { tags: linkTags, summary: 'One quota link', params: idParams, response: { 200: accessorLinkOutput } },
      },
      async (request) => getAccessorLink(deps, currentUser(request).user, request.params.id, origin(request)),
    );
    for (const [path, body] of LINK_OPTIONS) {
      app.patch(
        `/cabinet/project-accessor-links/:id/${path}/`,
        {
          schema: {
            tags: linkTags,
            summary: `Quota link: ${path.replaceAll('-', ' ')}`,
            params: idParams,
            body,
            response: { 200: accessorLinkOutput },
          },
        },
        async (request) =>
          setAccessorLinkOption(deps, currentUser(request).user, request.params.id, request.body, origin(request)),
      );
    }
  };
}
