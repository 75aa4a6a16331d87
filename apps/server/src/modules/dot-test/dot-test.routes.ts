import {
  DOT_TEST_API,
  DOT_TEST_LIMITS,
  dotTestChunkOutput,
  dotTestChunkParams,
  dotTestCompleteInput,
  dotTestEventBatchInput,
  dotTestEventBatchOutput,
  dotTestIdParams,
  dotTestStartInput,
  dotTestStartOutput,
  dotTestStateOutput,
} from '@emolens/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DotTestRow } from '../../db/types.ts';
import { acceptChunkBodies } from '../../http/chunk-body.ts';
import { AppError } from '../../http/errors.ts';
import { requireDotTest } from '../access/access.ts';
import {
  completeDotTest,
  deleteDotTest,
  dotTestState,
  postDotTestEvents,
  putDotTestChunk,
  startDotTest,
} from './dot-test.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The setup check of a /r/dot-tests/{id}… call (its secret checked). */
    dotTest: DotTestRow | null;
  }
}

const PATH = DOT_TEST_API.replace(/^\/r/, '');

/**
 * The setup check's public API (`/r/dot-tests`): no login, no cookie; a test is reached with its id
 * and its secret as `Authorization: Bearer`, and every call without them is "not found".
 */
export function dotTestRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const deps = ctx.deps;
  const current = (request: FastifyRequest) => {
    if (!request.dotTest) throw new AppError('not_found', { message: 'respondent.dotTestNotFound' });
    return request.dotTest;
  };

  return async (app) => {
    const tags = ['dot-test'];

    // Who calls before what they send (a chunk's bytes are read only for the holder of the secret).
    app.decorateRequest('dotTest', null);
    app.addHook('preParsing', async (request, _reply, payload) => {
      if (!(request.routeOptions.url ?? '').startsWith(`${DOT_TEST_API}/:id`)) return payload;
      const id = (request.params as { id?: unknown }).id;
      request.dotTest = await requireDotTest(
        deps.dotTests,
        typeof id === 'string' ? id : '',
        request.headers.authorization,
      );
      return payload;
    });

    // Recording chunks arrive as raw bytes, read up to the chunk limit (the app's body limit is smaller).
    acceptChunkBodies(app, DOT_TEST_LIMITS.chunkBytes);

    app.post(
      PATH,
      {
        schema: {
          tags,
          summary: 'Consent given: starts a setup check; its secret is shown once',
          body: dotTestStartInput,
          response: { 201: dotTestStartOutput },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await startDotTest(deps, request.body, request.headers['user-agent'])),
    );

    app.get(
      `${PATH}/:id`,
      {
        schema: {
          tags,
          summary: "The check's state: recording, queued, processing (with progress), done with the result, failed",
          params: dotTestIdParams,
          response: { 200: dotTestStateOutput },
        },
      },
      async (request) => dotTestState(current(request)),
    );

    app.put(
      `${PATH}/:id/chunks/:index`,
      {
        schema: {
          tags,
          summary: 'One recorder chunk (raw bytes, header x-chunk-sha256); idempotent by index',
          params: dotTestChunkParams,
          headers: z.object({ 'x-chunk-sha256': z.string().max(200).optional() }),
          consumes: ['application/octet-stream'],
          body: z.any().describe('The chunk bytes as recorded (application/octet-stream)'),
          response: { 200: dotTestChunkOutput, 201: dotTestChunkOutput },
        },
      },
      async (request, reply) => {
        const test = current(request);
        const body: unknown = request.body;
        if (!Buffer.isBuffer(body))
          throw new AppError('unsupported_media_type', { message: 'respondent.chunkNotVideo' });
        const result = await putDotTestChunk(deps, test, request.params.index, body, request.headers['x-chunk-sha256']);
        return reply.status(result.stored ? 201 : 200).send(result);
      },
    );

    app.post(
      `${PATH}/:id/events`,
      {
        schema: {
          tags,
          summary: "A batch of the calibration's events on the recording's clock; idempotent by seq",
          params: dotTestIdParams,
          body: dotTestEventBatchInput,
          response: { 200: dotTestEventBatchOutput, 201: dotTestEventBatchOutput },
        },
      },
      async (request, reply) => {
        const result = await postDotTestEvents(deps, current(request), request.body);
        return reply.status(result.stored ? 201 : 200).send(result);
      },
    );

    app.post(
      `${PATH}/:id/complete`,
      {
        schema: {
          tags,
          summary: 'Everything is sent: the counts are checked and the analysis is queued',
          params: dotTestIdParams,
          body: dotTestCompleteInput,
          response: { 200: dotTestStateOutput },
        },
      },
      async (request) => completeDotTest(deps, current(request), request.body),
    );

    app.delete(
      `${PATH}/:id`,
      {
        schema: {
          tags,
          summary: 'Deletes the check now, with its recording',
          params: dotTestIdParams,
        },
      },
      async (request, reply) => {
        await deleteDotTest(deps, current(request));
        return reply.status(204).send();
      },
    );
  };
}
