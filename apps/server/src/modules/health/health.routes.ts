import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { WORKER_HEARTBEAT_MS } from '../../jobs/queue.ts';

/** A worker whose last heartbeat is older than four beats is taken for gone. */
export const WORKER_STALE_SECONDS = (4 * WORKER_HEARTBEAT_MS) / 1000;
/** The storage's check gives up after this: a hung bucket is reported down, not waited for. */
const STORAGE_CHECK_MS = 3_000;

const part = z.enum(['ok', 'down']);
const healthOutput = z.object({
  /** `ok` when every part is; `degraded` otherwise (503 when the database or the storage is down). */
  status: z.enum(['ok', 'degraded']),
  database: part,
  storage: part,
  /** This process's job-queue client (every started API has one); not whether a worker runs. */
  queue: z.enum(['running', 'stopped']),
  workers: z.object({
    /** `ok`: some worker beat within WORKER_STALE_SECONDS; `stale`: none did; `none`: none ever beat. */
    status: z.enum(['ok', 'stale', 'none', 'unknown']),
    /** Seconds since the newest heartbeat of any worker. */
    lastHeartbeatSeconds: z.number().nullable(),
    /** Workers whose heartbeat is fresh. */
    alive: z.number().int(),
  }),
});
const readyOutput = z.object({
  status: z.enum(['ready', 'not_ready']),
  database: part,
  shuttingDown: z.boolean(),
});

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `/healthz` for monitoring: the database, the storage and the workers' heartbeat, each with its own status
 * (decision 069). `/readyz` for load balancers: this process takes requests (the database answers and it is not
 * shutting down); it does not depend on the storage or the workers, so that a bucket's hiccup does not take every API
 * out of the balancer at once.
 */
export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const databaseAnswers = () =>
    sql`select 1`
      .execute(ctx.database.db)
      .then(() => 'ok' as const)
      .catch(() => 'down' as const);

  return async (app) => {
    let shuttingDown = false;
    app.addHook('preClose', async () => {
      shuttingDown = true;
    });

    app.get(
      '/healthz',
      {
        schema: {
          tags: ['health'],
          summary: 'Database, storage and workers: each part with its status',
          response: { 200: healthOutput, 503: healthOutput },
        },
      },
      async (_request, reply) => {
        const [database, storage] = await Promise.all([
          databaseAnswers(),
          within(ctx.deps.storage.check(), STORAGE_CHECK_MS).then(
            () => 'ok' as const,
            (err: unknown) => {
              ctx.log.warn({ err }, 'health check: the storage is not usable');
              return 'down' as const;
            },
          ),
        ]);
        const beats =
          database === 'ok'
            ? await ctx.deps.workerHeartbeats.latest(WORKER_STALE_SECONDS).catch(() => undefined)
            : undefined;
        const workers = !beats
          ? { status: 'unknown' as const, lastHeartbeatSeconds: null, alive: 0 }
          : {
              status:
                beats.lastAgeSeconds === null
                  ? ('none' as const)
                  : beats.fresh > 0
                    ? ('ok' as const)
                    : ('stale' as const),
              lastHeartbeatSeconds: beats.lastAgeSeconds === null ? null : Math.round(beats.lastAgeSeconds * 10) / 10,
              alive: beats.fresh,
            };
        const serving = database === 'ok' && storage === 'ok';
        const body = {
          status: serving && workers.status === 'ok' ? ('ok' as const) : ('degraded' as const),
          database,
          storage,
          queue: ctx.queue.started ? ('running' as const) : ('stopped' as const),
          workers,
        };
        return reply.status(serving ? 200 : 503).send(body);
      },
    );

    app.get(
      '/readyz',
      {
        schema: {
          tags: ['health'],
          summary: 'Whether this process takes requests: the database answers and it is not shutting down',
          response: { 200: readyOutput, 503: readyOutput },
        },
      },
      async (_request, reply) => {
        const database = await databaseAnswers();
        const ready = database === 'ok' && !shuttingDown;
        return reply
          .status(ready ? 200 : 503)
          .send({ status: ready ? ('ready' as const) : ('not_ready' as const), database, shuttingDown });
      },
    );
  };
}
