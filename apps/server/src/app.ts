import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { type AppContext, createContext } from './context.ts';
import { type Database, openDatabase } from './db/client.ts';
import { AppError, registerErrorHandling } from './http/errors.ts';
import { refuseInvalidText } from './http/invalid-text.ts';
import { WORKER_SCRIPT_HEADERS } from './http/isolation.ts';
import { registerOperationSecurity, SECURITY_SCHEMES } from './http/openapi-security.ts';
import { registerRateLimits } from './http/rate-limits.ts';
import { registerCabinetSecurity, registerTokenSecurity } from './http/security.ts';
import { JOBS } from './jobs/registry.ts';
import { createLogger, requestLogging } from './logger.ts';
import { accessRequestsRoutes } from './modules/access-requests/access-requests.routes.ts';
import { apiAccessRoutes } from './modules/api-access/api-access.routes.ts';
import { REPORT_BUILDER_PREFIX, reportBuilderRoutes } from './modules/api-access/report-builder.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { benchmarksRoutes } from './modules/benchmarks/benchmarks.routes.ts';
import { dotTestRoutes } from './modules/dot-test/dot-test.routes.ts';
import { engineAssetsRoutes } from './modules/engine-assets/engine-assets.routes.ts';
import { fieldworkRoutes, publicQuotaRoutes } from './modules/fieldwork/fieldwork.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { interviewAnalysisRoutes } from './modules/interview-analysis/interview-analysis.routes.ts';
import { licencesRoutes } from './modules/licences/licences.routes.ts';
import { mediaRoutes, mediaUploadRoutes } from './modules/media/media.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { phantomTruthsRoutes } from './modules/phantom-truths/phantom-truths.routes.ts';
import { processingRoutes } from './modules/processing/processing.routes.ts';
import { projectsRoutes } from './modules/projects/projects.routes.ts';
import { acceptanceRoutes } from './modules/recruiting/acceptance.routes.ts';
import { recruitingJobsRoutes } from './modules/recruiting/recruiting-jobs.routes.ts';
import { recruitingTokensRoutes } from './modules/recruiting-tokens/recruiting-tokens.routes.ts';
import { reportFilesRoutes } from './modules/reports/report-files.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { researchesRoutes } from './modules/researches/researches.routes.ts';
import { respondentPageHeaders } from './modules/respondents/page-isolation.ts';
import { respondentsRoutes } from './modules/respondents/respondents.routes.ts';
import { retentionRoutes } from './modules/retention/retention.routes.ts';
import { scenariosRoutes } from './modules/scenarios/scenarios.routes.ts';
import { selfServiceRoutes } from './modules/self-service/self-service.routes.ts';
import { sessionEstimateRoutes } from './modules/session-estimate/session-estimate.routes.ts';
import { ssoRoutes } from './modules/sso/sso.routes.ts';
import { surveysRoutes } from './modules/surveys/surveys.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** Paths the SPA never owns: unknown ones answer 404 JSON instead of the app shell. */
const API_PREFIXES = ['/api', '/report_builder', '/mediaserver', '/r/', '/healthz', '/readyz', '/engine-assets'];
const HASHED_ASSET = /\/assets\/[^/]+-[\w-]{8,}\.\w+$/;

export interface BuildOptions {
  /** An open database; otherwise one is opened from the config and closed with the app. */
  database?: Database;
  logger?: Logger;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const log = options.logger ?? createLogger(config);
  const database =
    options.database ??
    (await openDatabase(databaseTarget(config), {
      onConnectionError: (err) => log.warn({ err }, 'idle database connection lost'),
    }));
  const ctx = await createContext(config, database, log, JOBS);
  // The provider's discovery at start, in the background: a wrong issuer shows in the log at once, and the first
  // sign-in does not wait for it (a failure is retried then).
  ctx.deps.ssoClient?.configuration().catch(() => undefined);

  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    ...requestLogging(log),
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
    // A URL the router cannot decode (a lone surrogate in percent-encoding, say) answers like any
    // other bad input, not with Fastify's own body.
    frameworkErrors: (_error, _request, reply) =>
      (reply as FastifyReply).status(400).send(new AppError('bad_request').toJSON()),
  }).withTypeProvider<ZodTypeProvider>();
  app.decorate('ctx', ctx);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  app.addHook('onClose', async () => {
    await ctx.queue.stop();
    await ctx.deps.engine.close();
    if (!options.database) await database.close();
  });

  // How long the server itself took (from the request's arrival to its answer), so a client or a benchmark
  // can tell the server's time from the network's and its own queueing (W3C Server-Timing).
  app.addHook('onSend', async (_request, reply) => {
    reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(1)}`);
  });

  await app.register(fastifyCookie);
  await registerRateLimits(
    app,
    config,
    // One embedded database is one process: its limits are exact in memory.
    database.kind === 'postgres' ? { counters: ctx.deps.rateLimitCounters, log } : undefined,
  );
  await app.register(fastifyCompress, { threshold: 1024 });
  registerOperationSecurity(app);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Emolens API',
        version: '0.1.0',
        description:
          'Cabinet API (/api): session cookie plus X-CSRFToken header. Report builder API (/report_builder/api): `Authorization: Token <token>` with a personal API token; the same report operations as the cabinet. Respondent API (/r): no login; a session is reached with its secret as a bearer token.',
      },
      // Each operation's own security is set by registerOperationSecurity, from the surface it is on.
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(healthRoutes(ctx));
  await app.register(engineAssetsRoutes());
  await app.register(mediaUploadRoutes(ctx));
  await app.register(publicQuotaRoutes(ctx), { prefix: '/r' });
  await app.register(
    async (api) => {
      registerCabinetSecurity(api, ctx);
      api.addHook('preValidation', refuseInvalidText);
      await api.register(authRoutes(ctx));
      await api.register(ssoRoutes(ctx));
      await api.register(usersRoutes(ctx));
      await api.register(apiAccessRoutes(ctx));
      await api.register(webhooksRoutes(ctx));
      await api.register(recruitingTokensRoutes(ctx));
      await api.register(projectsRoutes(ctx));
      await api.register(researchesRoutes(ctx));
      await api.register(scenariosRoutes(ctx));
      await api.register(surveysRoutes(ctx));
      await api.register(mediaRoutes(ctx));
      await api.register(sessionEstimateRoutes(ctx));
      await api.register(fieldworkRoutes(ctx));
      await api.register(reportsRoutes(ctx), { prefix: '/cabinet' });
      await api.register(reportFilesRoutes(ctx), { prefix: '/cabinet' });
      await api.register(benchmarksRoutes(ctx));
      await api.register(recruitingJobsRoutes(ctx));
      await api.register(licencesRoutes(ctx));
      await api.register(selfServiceRoutes(ctx));
      await api.register(notificationsRoutes(ctx));
      await api.register(acceptanceRoutes(ctx));
      await api.register(processingRoutes(ctx));
      await api.register(phantomTruthsRoutes(ctx));
      await api.register(retentionRoutes(ctx));
      await api.register(interviewAnalysisRoutes(ctx));
      await api.register(accessRequestsRoutes(ctx));
    },
    { prefix: '/api' },
  );
  // The report builder's API (spec section 7): token authorization, the cabinet's report operations and access checks.
  await app.register(
    async (builder) => {
      registerTokenSecurity(builder, ctx);
      builder.addHook('preValidation', refuseInvalidText);
      await builder.register(reportBuilderRoutes(ctx));
      await builder.register(reportsRoutes(ctx));
      await builder.register(reportFilesRoutes(ctx));
    },
    { prefix: REPORT_BUILDER_PREFIX },
  );
  // The respondent side (design section 6): public, no cabinet cookie or CSRF, its own limits.
  await app.register(
    async (respondent) => {
      respondent.addHook('preValidation', refuseInvalidText);
      await respondent.register(respondentsRoutes(ctx));
      await respondent.register(dotTestRoutes(ctx));
    },
    { prefix: '/r' },
  );

  const webDist = config.webDist;
  // The SPA routes every other path itself, its not-found page included.
  const sendShell = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html');
  if (webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      // Files are looked up per request, so a rebuilt SPA is served without a restart.
      wildcard: true,
      index: false,
      setHeaders: (res, path) => {
        res.header('cache-control', HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // A script may be a worker of an isolated respondent page (the face engine's, decision 072).
        if (path.endsWith('.js')) res.headers(WORKER_SCRIPT_HEADERS);
      },
    });
    app.get('/', { schema: { hide: true } }, (_request, reply) => sendShell(reply));
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
    if (webDist && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      // A privacy-mode research's respondent page is cross-origin isolated (decision 072).
      return sendShell(reply.headers(await respondentPageHeaders(ctx.deps, path)));
    }
    throw new AppError('not_found');
  });

  return app;
}

export function databaseTarget(config: Config) {
  return config.databaseUrl
    ? ({ kind: 'postgres', url: config.databaseUrl } as const)
    : ({ kind: 'pglite', dataDir: join(config.dataDir, 'pgdata') } as const);
}
