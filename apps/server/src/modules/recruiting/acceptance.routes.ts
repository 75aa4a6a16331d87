import { confirmTolokaDecisionsInput, tolokaAcceptanceInput, tolokaDecisionsOutput } from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import {
  confirmTolokaDecisions,
  reviewTolokaAssignments,
  setTolokaAcceptance,
  tolokaDecisions,
} from './acceptance.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const tags = ['toloka'];

/** Acceptance of a research's Toloka assignments (issue 14, item 5). Each answer is the decisions after. */
export function tolokaAcceptanceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    app.get(
      '/cabinet/campaigns/:id/toloka/decisions/',
      {
        schema: {
          tags,
          summary: "Decisions on the pool's assignments, newest first, with counts per decision and status",
          params: idParams,
          response: { 200: tolokaDecisionsOutput },
        },
      },
      async (request) => tolokaDecisions(deps, currentUser(request).user, request.params.id),
    );
    app.put(
      '/cabinet/campaigns/:id/toloka/acceptance/',
      {
        schema: {
          tags,
          summary: "Whether decisions on the pool's assignments are sent at once ('auto') or after confirmation",
          params: idParams,
          body: tolokaAcceptanceInput,
          response: { 200: tolokaDecisionsOutput },
        },
      },
      async (request) => {
        const user = currentUser(request).user;
        await setTolokaAcceptance(deps, user, request.params.id, request.body.acceptance);
        return tolokaDecisions(deps, user, request.params.id);
      },
    );
    app.post(
      '/cabinet/campaigns/:id/toloka/review/',
      {
        schema: {
          tags,
          summary:
            "Checks the completion codes of the pool's submitted assignments and decides each (sent at once in 'auto')",
          params: idParams,
          response: { 200: tolokaDecisionsOutput },
        },
      },
      async (request) => {
        const user = currentUser(request).user;
        const review = await reviewTolokaAssignments(deps, user, ctx.secret, request.params.id);
        return tolokaDecisions(deps, user, request.params.id, review);
      },
    );
    app.post(
      '/cabinet/campaigns/:id/toloka/decisions/confirm/',
      {
        schema: {
          tags,
          summary: 'Sends the decisions named (all waiting when none are named) to Toloka',
          params: idParams,
          body: confirmTolokaDecisionsInput,
          response: { 200: tolokaDecisionsOutput },
        },
      },
      async (request) => {
        const user = currentUser(request).user;
        await confirmTolokaDecisions(deps, user, request.params.id, request.body.assignment_ids);
        return tolokaDecisions(deps, user, request.params.id);
      },
    );
  };
}
