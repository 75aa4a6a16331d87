import {
  answersOutput,
  answersParams,
  chunkOutput,
  chunkParams,
  completeSessionInput,
  eventBatchInput,
  eventBatchOutput,
  leaveSessionInput,
  linkInfoOutput,
  RESPONDENT_API,
  RESPONDENT_LIMITS,
  respondentAnswersInput,
  sessionEndSchema,
  sessionStateOutput,
  startSegmentInput,
  startSegmentOutput,
  startSessionInput,
  startSessionOutput,
  turnAwayOutput,
} from '@emolens/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { RespondentSessionRow } from '../../db/types.ts';
import { acceptChunkBodies } from '../../http/chunk-body.ts';
import { AppError } from '../../http/errors.ts';
import { requireRespondent } from '../access/access.ts';
import { calibrationCheckRoutes } from '../calibration-check/calibration-check.routes.ts';
import { sendStoredFile } from '../media/serving.ts';
import { analysisSiteRoutes } from './analysis-site.routes.ts';
import { saveAnswers } from './answers.ts';
import { completeSession } from './completion.ts';
import { postEvents } from './event-log.ts';
import { putChunk } from './recording.ts';
import {
  leaveSession,
  linkInfo,
  respondentMedia,
  sessionState,
  startSegment,
  startSession,
  turnAway,
} from './respondents.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The respondent session of a /r/sessions/… call (its secret checked). */
    respondentSession: RespondentSessionRow | null;
  }
}

// A token that is not a link's is "not found" (it reaches SQL only when it looks like one).
const tokenParams = z.strictObject({ token: z.string().max(128) });
const sessionParams = z.strictObject({ id: z.string().max(64) });
const mediaParams = z.strictObject({ id: z.string().max(64) });
const mediaQuery = z.strictObject({
  s: z.string().max(64),
  e: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 40),
  sig: z.string().max(128),
});

/**
 * The respondent API (design section 6) under `/r`: no login, no cabinet cookie, no CSRF. A
 * session is reached with its id in the path and its secret as `Authorization: Bearer`.
 */
export function respondentsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  const signing = { secret: ctx.secret };
  // The session of a /r/sessions/… call, found before its input is validated (see the hook below).
  const respondent = async (request: FastifyRequest) => {
    if (!request.respondentSession) throw new AppError('not_found', { message: 'respondent.sessionNotFound' });
    return request.respondentSession;
  };

  return async (app) => {
    const tags = ['respondent'];

    // Who calls comes before what they send: without the session's secret every /r/sessions/… call
    // is "not found", whatever its body, like the cabinet's 401 before validation; and a body (a
    // chunk is up to 8 MB) is read only for a caller who holds a session.
    app.decorateRequest('respondentSession', null);
    app.addHook('preParsing', async (request, _reply, payload) => {
      if (!(request.routeOptions.url ?? '').startsWith(`${RESPONDENT_API}/sessions/`)) return payload;
      const id = (request.params as { id?: unknown }).id;
      request.respondentSession = await requireRespondent(
        deps.respondents,
        typeof id === 'string' ? id : '',
        request.headers.authorization,
      );
      return payload;
    });

    // Recording chunks arrive as raw bytes, read up to the chunk limit (the app's body limit is smaller).
    acceptChunkBodies(app, RESPONDENT_LIMITS.chunkBytes);

    app.get(
      '/links/:token',
      {
        schema: {
          tags,
          summary: "A quota link's start page: project, language, state; creates nothing",
          params: tokenParams,
          response: { 200: linkInfoOutput },
        },
      },
      async (request) => linkInfo(deps, request.params.token),
    );

    app.post(
      '/links/:token/turned-away',
      {
        schema: {
          tags,
          summary: 'The start page turned a respondent away at a full quota: counted under "Quota full"',
          params: tokenParams,
          response: { 200: turnAwayOutput },
        },
      },
      async (request) => turnAway(deps, request.params.token),
    );

    app.post(
      '/links/:token/sessions',
      {
        schema: {
          tags,
          summary: 'Consent given: starts a respondent session; its secret is shown once',
          params: tokenParams,
          body: startSessionInput,
          response: { 201: startSessionOutput },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await startSession(deps, signing, request.params.token, request.body, request.headers['user-agent'])),
    );

    app.get(
      '/sessions/:id',
      {
        schema: {
          tags,
          summary: 'The session as a reload resumes it',
          params: sessionParams,
          response: { 200: sessionStateOutput },
        },
      },
      async (request) => sessionState(deps, signing, await respondent(request)),
    );

    app.post(
      '/sessions/:id/segments',
      {
        schema: {
          tags,
          summary: 'A recording segment starts (first start and every reload)',
          params: sessionParams,
          body: startSegmentInput,
          response: { 201: startSegmentOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await startSegment(deps, await respondent(request), request.body)),
    );

    app.put(
      '/sessions/:id/segments/:segment/chunks/:index',
      {
        schema: {
          tags,
          summary: 'One recorder chunk (raw bytes, header x-chunk-sha256); idempotent by index',
          params: chunkParams,
          headers: z.object({ 'x-chunk-sha256': z.string().max(200).optional() }),
          consumes: ['application/octet-stream'],
          body: z.any().describe('The chunk bytes as recorded (application/octet-stream)'),
          response: { 200: chunkOutput, 201: chunkOutput },
        },
      },
      async (request, reply) => {
        const session = await respondent(request);
        // Only the octet-stream parser above makes a Buffer: JSON, text or no body is not a chunk.
        const body: unknown = request.body;
        if (!Buffer.isBuffer(body))
          throw new AppError('unsupported_media_type', { message: 'respondent.chunkNotVideo' });
        const result = await putChunk(deps, session, request.params, body, request.headers['x-chunk-sha256']);
        return reply.status(result.stored ? 201 : 200).send(result);
      },
    );

    app.post(
      '/sessions/:id/events',
      {
        schema: {
          tags,
          summary: 'A batch of stimulus events on the session clock; idempotent by seq',
          params: sessionParams,
          body: eventBatchInput,
          response: { 200: eventBatchOutput, 201: eventBatchOutput },
        },
      },
      async (request, reply) => {
        const result = await postEvents(deps, await respondent(request), request.body);
        return reply.status(result.stored ? 201 : 200).send(result);
      },
    );

    app.put(
      '/sessions/:id/surveys/:slot/answers',
      {
        schema: {
          tags,
          summary:
            "The answers to the screener's or the survey's questions so far (replacing the stored ones), final once; the screener's verdict",
          params: answersParams,
          body: respondentAnswersInput,
          response: { 200: answersOutput },
        },
      },
      async (request) => saveAnswers(deps, signing, await respondent(request), request.params.slot, request.body),
    );

    app.post(
      '/sessions/:id/complete',
      {
        schema: {
          tags,
          summary: 'Everything is sent: checks the recording and the log, takes a quota slot; the end',
          params: sessionParams,
          body: completeSessionInput,
          response: { 200: sessionEndSchema },
        },
      },
      async (request) => completeSession(deps, signing, await respondent(request), request.body),
    );

    app.post(
      '/sessions/:id/leave',
      {
        schema: {
          tags,
          summary: 'The respondent left for good: the session ends as dropped out',
          params: sessionParams,
          body: leaveSessionInput,
          response: { 200: sessionStateOutput },
        },
      },
      async (request) => leaveSession(deps, signing, await respondent(request), request.body.reason),
    );

    // The calibration check before the content (decision 050): the hook above finds the caller's session.
    await app.register(calibrationCheckRoutes(ctx));
    // Privacy mode's device check, fall-back and stop (decision 064), under the same hook.
    await app.register(analysisSiteRoutes(ctx));

    app.get(
      '/media/:id',
      {
        schema: {
          tags,
          summary: "A research's file by the signed URL a session was given (Range supported)",
          params: mediaParams,
          querystring: mediaQuery,
        },
      },
      async (request, reply) => {
        const file = await respondentMedia(deps, signing, request.params.id, request.query);
        return sendStoredFile(request, reply, deps.storage, file);
      },
    );
  };
}
