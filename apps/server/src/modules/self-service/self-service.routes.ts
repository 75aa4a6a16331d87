import {
  createSelfServiceInput,
  moderateSelfServiceInput,
  selfServiceListOutput,
  selfServiceListQuery,
  selfServiceTest,
  updateSelfServiceInput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { publicOrigin } from '../../http/public-url.ts';
import { currentUser } from '../../http/security.ts';
import {
  closeTest,
  createTest,
  deleteTest,
  getTest,
  listTests,
  moderateTest,
  startTest,
  submitTest,
  updateTest,
} from './self-service.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const tags = ['self-service'];
const BASE = '/cabinet/self-service/';

/** Self-service video-ad tests (issue 15): the customer's steps, staff moderation; each answer is the test after. */
export function selfServiceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      BASE,
      {
        schema: {
          tags,
          summary: "The user's tests; staff: the moderation queue or every test",
          querystring: selfServiceListQuery,
          response: { 200: selfServiceListOutput },
        },
      },
      async (request) => listTests(deps, currentUser(request).user, request.query.scope),
    );
    app.post(
      BASE,
      {
        schema: {
          tags,
          summary: 'A new draft: its project and video research, and the video-ad survey from the template',
          body: createSelfServiceInput,
          response: { 201: selfServiceTest },
        },
      },
      async (request, reply) => {
        const user = currentUser(request).user;
        const id = await createTest(deps, user, request.body);
        return reply.status(201).send(await getTest(deps, user, id, publicOrigin(ctx.config, request)));
      },
    );
    app.get(
      `${BASE}:id/`,
      {
        schema: {
          tags,
          summary: 'The test, its state history and what can be done',
          params: idParams,
          response: { 200: selfServiceTest },
        },
      },
      async (request) => getTest(deps, currentUser(request).user, request.params.id, publicOrigin(ctx.config, request)),
    );
    app.patch(
      `${BASE}:id/`,
      {
        schema: {
          tags,
          summary: "A draft's title, respondents, audience and categories",
          params: idParams,
          body: updateSelfServiceInput,
          response: { 200: selfServiceTest },
        },
      },
      async (request) => {
        const user = currentUser(request).user;
        await updateTest(deps, user, request.params.id, request.body);
        return getTest(deps, user, request.params.id, publicOrigin(ctx.config, request));
      },
    );
    app.delete(
      `${BASE}:id/`,
      { schema: { tags, summary: 'Deletes a draft with what was made for it', params: idParams } },
      async (request, reply) => {
        await deleteTest(deps, currentUser(request).user, request.params.id);
        return reply.status(204).send();
      },
    );
    app.post(
      `${BASE}:id/moderation/`,
      {
        schema: {
          tags,
          summary: 'Staff approve the test, or return it to its owner as a draft with a comment',
          params: idParams,
          body: moderateSelfServiceInput,
          response: { 200: selfServiceTest },
        },
      },
      async (request) => {
        const user = currentUser(request).user;
        await moderateTest(deps, user, request.params.id, request.body);
        return getTest(deps, user, request.params.id, publicOrigin(ctx.config, request));
      },
    );
    const actions = {
      submit: ['Sends the draft to moderation (irreversible: it can no longer be edited)', submitTest],
      start: ['Starts the moderated test: freezes and charges its sessions, and starts collection', startTest],
      complete: ['Completes a test whose report is ready', (d, u, id) => closeTest(d, u, id, 'complete')],
      archive: ['Archives a completed test', (d, u, id) => closeTest(d, u, id, 'archive')],
    } as const satisfies Record<string, readonly [string, typeof submitTest]>;
    for (const [action, [summary, run]] of Object.entries(actions)) {
      app.post(
        `${BASE}:id/${action}/`,
        { schema: { tags, summary, params: idParams, response: { 200: selfServiceTest } } },
        async (request) => {
          const user = currentUser(request).user;
          await run(deps, user, request.params.id);
          return getTest(deps, user, request.params.id, publicOrigin(ctx.config, request));
        },
      );
    }
  };
}
