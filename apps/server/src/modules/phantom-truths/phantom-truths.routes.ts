import {
  PHANTOM_TRUTH_LIMITS,
  phantomTruthInput,
  phantomTruthSavedOutput,
  phantomTruthsOutput,
} from '@emolens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../../http/security.ts';
import { phantomTruthsOf, savePhantomTruth } from './phantom-truths.service.ts';

const idParams = z.object({ id: z.string().max(64) });

/** Phantom respondents' truth: attached to a session, and measured against true per respondent of a research. */
export function phantomTruthsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  return async (app) => {
    const tags = ['fieldwork'];

    app.put(
      '/cabinet/respondent-sessions/:id/phantom-truth/',
      {
        bodyLimit: PHANTOM_TRUTH_LIMITS.bodyBytes,
        schema: {
          tags,
          summary:
            "Attaches a phantom recording's truth (what was put into every frame) to the session it was recorded in; replaces the one it had",
          params: idParams,
          body: phantomTruthInput,
          response: { 200: phantomTruthSavedOutput, 201: phantomTruthSavedOutput },
        },
      },
      async (request, reply) => {
        const saved = await savePhantomTruth(deps, currentUser(request).user, request.params.id, request.body);
        return reply.status(saved.created ? 201 : 200).send(saved);
      },
    );

    app.get(
      '/cabinet/campaigns/:id/phantom-truths/',
      {
        schema: {
          tags,
          summary:
            "The research's phantom respondents: the engine's measurement against the truth (gaze, expressions, blinks, head pose), per respondent",
          params: idParams,
          response: { 200: phantomTruthsOutput },
        },
      },
      async (request) => phantomTruthsOf(deps, currentUser(request).user, request.params.id),
    );
  };
}
