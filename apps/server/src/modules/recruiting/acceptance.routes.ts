import {
  acceptanceInput,
  assignmentDecisionsOutput,
  confirmDecisionsInput,
  RECRUITING_PLATFORM_CONTRACTS,
  RECRUITING_PLATFORMS,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { assignmentDecisions, confirmDecisions, reviewAssignments, setAcceptance } from './acceptance.service.ts';

const idParams = z.object({ id: z.string().max(64) });

/**
 * Acceptance of the assignments of a research's pool or HIT (issue 14, items 5 and 6): the same operations under
 * `…/{platform}/` for each platform of RECRUITING_PLATFORM_CONTRACTS. Each answer is the decisions after.
 */
export function acceptanceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    for (const platform of RECRUITING_PLATFORMS) {
      const base = `/cabinet/campaigns/:id/${platform}`;
      const tags = [platform];
      const { name } = RECRUITING_PLATFORM_CONTRACTS[platform];
      const job = `${name} ${RECRUITING_PLATFORM_CONTRACTS[platform].job}`;
      app.get(
        `${base}/decisions/`,
        {
          schema: {
            tags,
            summary: `Decisions on the ${job}'s assignments, newest first, with counts per decision and status`,
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
            summary: `Whether decisions on the ${job}'s assignments are sent at once ('auto') or after confirmation`,
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
            summary: `Checks the completion codes of the ${job}'s submitted assignments and decides each (sent at once in 'auto')`,
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
            summary: `Sends the decisions named (all waiting when none are named) to ${name}`,
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
