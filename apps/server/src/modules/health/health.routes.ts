import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';

const healthOutput = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'down']),
  queue: z.enum(['running', 'stopped']),
});

export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness and database check',
          response: { 200: healthOutput, 503: healthOutput },
        },
      },
      async (_request, reply) => {
        const database = await sql`select 1`
          .execute(ctx.database.db)
          .then(() => 'ok' as const)
          .catch(() => 'down' as const);
        const body = {
          status: database === 'ok' ? ('ok' as const) : ('degraded' as const),
          database,
          queue: ctx.queue.started ? ('running' as const) : ('stopped' as const),
        };
        return reply.status(database === 'ok' ? 200 : 503).send(body);
      },
    );
  };
}
