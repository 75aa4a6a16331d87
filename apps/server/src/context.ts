import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { JobQueue } from './jobs/queue.ts';
import { type AuthRepository, createAuthRepository } from './modules/auth/auth.repository.ts';
import { randomToken } from './modules/auth/tokens.ts';
import { createUsersRepository, type UsersRepository } from './modules/users/users.repository.ts';

/** What every route, service and job is given: built once per process. */
export interface AppContext {
  config: Config;
  database: Database;
  log: Logger;
  repos: { auth: AuthRepository; users: UsersRepository };
  /** Signs derived tokens. From APP_SECRET, else generated once and kept in the database. */
  secret: string;
  queue: JobQueue;
}

export async function createContext(config: Config, database: Database, log: Logger): Promise<AppContext> {
  const auth = createAuthRepository(database.db);
  const users = createUsersRepository(database.db);
  const secret = config.appSecret ?? (await auth.getOrCreateSetting('app_secret', () => randomToken(48)));
  const ctx: AppContext = { config, database, log, repos: { auth, users }, secret, queue: undefined as never };
  ctx.queue = new JobQueue(ctx);
  return ctx;
}
