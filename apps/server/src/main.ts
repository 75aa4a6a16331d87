import { parseArgs } from 'node:util';
import { ROLES, type Role } from '@emolens/contracts';
import type { Logger } from 'pino';
import { buildApp, databaseTarget } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContext } from './context.ts';
import { openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import { AppError } from './http/errors.ts';
import { JOBS } from './jobs/registry.ts';
import { createLogger } from './logger.ts';
import type { Storage } from './modules/media/storage.ts';
import { createUser, setPassword } from './modules/users/users.service.ts';
import { seedDemoAccount } from './seed.ts';

const USAGE = `Usage: emolens <command>

Commands:
  serve [--all]      API and web app; --all also runs the job worker in the same process
                     (always the case on the embedded database)
  worker             job worker only (needs DATABASE_URL)
  migrate            apply database migrations and exit
  user create --username NAME --password PASS [--role ROLE] [--armi] [--first-name F] [--last-name L]
                     [--email E] (the e-mail single sign-on matches the account by)
  user set-password --username NAME --password PASS

Roles: ${ROLES.join(', ')}
Environment: PORT, DATABASE_URL, DATA_DIR, LOG_LEVEL, ... (see README)`;

async function openMigrated() {
  const config = loadConfig();
  const log = createLogger(config);
  const database = await openDatabase(databaseTarget(config), {
    onConnectionError: (err) => log.warn({ err }, 'idle database connection lost'),
  });
  const applied = await migrateToLatest(database.db);
  for (const m of applied) log.info({ migration: m.migrationName }, 'migration applied');
  return { config, log, database };
}

/**
 * The storage is checked before the process takes any work (decision 069): a missing bucket, refused keys or an
 * unwritable MEDIA_DIR stop it at once with the reason in the log, rather than failing every upload later.
 */
async function checkStorage(storage: Storage, log: Logger): Promise<void> {
  try {
    await storage.check();
  } catch (err) {
    log.fatal({ err }, `storage check failed: ${(err as Error).message}`);
    throw new ConfigError(`Storage is not usable: ${(err as Error).message}`);
  }
  log.info({ storage: storage.kind }, 'storage checked');
}

function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop().then(
        () => process.exit(0),
        (err) => {
          console.error(err);
          process.exit(1);
        },
      );
    });
  }
}

async function serve(all: boolean): Promise<void> {
  const { config, log, database } = await openMigrated();
  // PGlite lives inside this process: its jobs can only run here.
  const runJobs = all || database.kind === 'pglite';
  const app = await buildApp(config, { database, logger: log });
  await checkStorage(app.ctx.deps.storage, log).catch(async (err: unknown) => {
    await app.close();
    await database.close();
    throw err;
  });
  await app.ctx.queue.start({ work: runJobs });
  // After the queue starts: the demo account's project is seeded by a job.
  const demo = await seedDemoAccount(app.ctx);
  onShutdown(async () => {
    log.info('shutting down: finishing in-flight requests and jobs');
    await app.close();
    await database.close();
  });
  await app.listen({ host: config.host, port: config.port });
  const url = config.publicUrl;
  if (!config.webDist) log.warn('web app is not built (npm run build): only the API is served');
  if (demo) {
    // Printed once to the terminal, deliberately not through the logger.
    const project = demo.demoProject
      ? '  Its demo project is being made in the background (a minute or two): respondents, processing, a report.\n'
      : '';
    process.stdout.write(
      `\n  Emolens is running at ${url}\n  Demo account created: username "${demo.username}", password "${demo.password}"\n  (shown only now; reset with: npm run emolens -- user set-password --username demo --password ...)\n${project}\n`,
    );
  } else {
    process.stdout.write(`\n  Emolens is running at ${url}\n\n`);
  }
}

async function worker(): Promise<void> {
  const { config, log, database } = await openMigrated();
  if (database.kind === 'pglite') {
    await database.close();
    throw new ConfigError(
      'A separate worker needs PostgreSQL: set DATABASE_URL (the embedded database runs jobs inside `serve`).',
    );
  }
  const ctx = await createContext(config, database, log, JOBS);
  await checkStorage(ctx.deps.storage, log).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  await ctx.queue.start({ work: true });
  log.info('worker started');
  onShutdown(async () => {
    log.info('shutting down: finishing running jobs');
    await ctx.queue.stop();
    await ctx.deps.engine.close();
    await database.close();
  });
}

async function user(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', default: 'customer' },
      armi: { type: 'boolean', default: false },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      email: { type: 'string' },
    },
  });
  const sub = positionals[0];
  if ((sub !== 'create' && sub !== 'set-password') || !values.username || !values.password) {
    throw new ConfigError(USAGE);
  }
  if (!(ROLES as readonly string[]).includes(values.role))
    throw new ConfigError(`Unknown role ${values.role}. Roles: ${ROLES.join(', ')}`);
  const { config, log, database } = await openMigrated();
  try {
    const ctx = await createContext(config, database, log, JOBS);
    if (sub === 'create') {
      const created = await createUser(ctx.deps.users, {
        username: values.username,
        password: values.password,
        role: values.role as Role,
        isArmiUser: values.armi,
        firstName: values['first-name'],
        lastName: values['last-name'],
        email: values.email?.trim() || null,
      });
      process.stdout.write(`User ${created.username} created (id ${created.public_user_id}, role ${created.role}).\n`);
    } else {
      await setPassword(ctx.deps.users, values.username, values.password);
      process.stdout.write(`Password of ${values.username} changed.\n`);
    }
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(rest.includes('--all'));
    case 'worker':
      return worker();
    case 'migrate': {
      const { database } = await openMigrated();
      await database.close();
      process.stdout.write('Migrations applied.\n');
      return;
    }
    case 'user':
      return user(rest);
    default:
      throw new ConfigError(USAGE);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else if (err instanceof AppError)
    console.error(`${err.message}${err.fields ? ` ${JSON.stringify(err.toJSON().fields)}` : ''}`);
  else console.error(err);
  process.exit(1);
});
