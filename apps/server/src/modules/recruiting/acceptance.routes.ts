import {
  acceptanceInput,
  assignmentDecisionsOutput,
  confirmDecisionsInput,
  RECRUITING_PLATFORMS,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { assignmentDecisions, confirmDecisions, reviewAssignments, setAcceptance } from './acceptance.service.ts';

const idParams = z.object({ id: z.string().max(64) });
const NAME = { toloka: 'Toloka pool', mturk: 'MTurk HIT' } as const;

/**
 * Acceptance of the assignments of a research's Toloka pool and MTurk HIT (issue 14, items 5 and 6): the same
 * operations under `…/toloka/` and `…/mturk/`. Each answer is the decisions after.
 */
export function acceptanceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    for (const platform of RECRUITING_PLATFORMS) {
      const base = `/cabinet/campaigns/:id/${platform}`;
      const tags = [platform];
      app.get(
        `${base}/decisions/`,
        {
          schema: {
            tags,
            summary: `Decisions on the ${NAME[platform]}'s assignments, newest first, with counts per decision and status`,
            params: idParams,
            response: { 200: assignmentDecisionsOutput },
          },
        },
        async (request) => assignmentDecisions(deps, currentUser(request).user, platform, request.params.id),
      );
      app.put(
        `${base}/acceptance/`,
        {
          schema: {
            tags,
            summary: `Whether decisions on the ${NAME[platform]}'s assignments are sent at once ('auto') or after confirmation`,
            params: idParams,
            body: acceptanceInput,
            response: { 200: assignmentDecisionsOutput },
          },
        },
        async (request) => {
          const user = currentUser(request).user;
          await setAcceptance(deps, user, platform, request.params.id, request.body.acceptance);
          return assignmentDecisions(deps, user, platform, request.params.id);
        },
      );
      app.post(
        `${base}/review/`,
        {
          schema: {
            tags,
            summary: `Checks the completion codes of the ${NAME[platform]}'s submitted assignments and decides each (sent at once in 'auto')`,
            params: idParams,
            response: { 200: assignmentDecisionsOutput },
          },
        },
        async (request) => {
          const user = currentUser(request).user;
          const review = await reviewAssignments(deps, user, ctx.secret, platform, request.params.id);
          return assignmentDecisions(deps, user, platform, request.params.id, review);
        },
      );
      app.post(
        `${base}/decisions/confirm/`,
        {
          schema: {
            tags,
            summary: `Sends the decisions named (all waiting when none are named) to ${platform === 'toloka' ? 'Toloka' : 'MTurk'}`,
            params: idParams,
            body: confirmDecisionsInput,
            response: { 200: assignmentDecisionsOutput },
          },
        },
        async (request) => {
          const user = currentUser(request).user;
          await confirmDecisions(deps, user, platform, request.params.id, request.body.assignment_ids);
          return assignmentDecisions(deps, user, platform, request.params.id);
        },
      );
    }
  };
}
