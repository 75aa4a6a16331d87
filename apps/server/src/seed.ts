import { randomBytes } from 'node:crypto';
import type { AppContext } from './context.ts';
import { isUniqueViolation } from './db/sql.ts';
import { queueDemoData } from './modules/demo-data/demo-data.service.ts';
import { createUser } from './modules/users/users.service.ts';

export const DEMO_USERNAME = 'demo';

/**
 * Creates the demo account on an installation that has no users yet. Returns its credentials so
 * the caller prints them once; they are never logged and never stored in clear. It is a categorizer admin
 * (spec section 6): the installation's first user keeps the categories directory, which a research's
 * categories are chosen from; like a customer, it sees only its own projects. With `SEED_DEMO_DATA`, its demo
 * project is queued to be made in the background (decision 017): only here, so only once per installation. The
 * queue must be started.
 */
export async function seedDemoAccount(
  ctx: AppContext,
): Promise<{ username: string; password: string; demoProject: boolean } | undefined> {
  if (!ctx.config.seedDemo || (await ctx.deps.users.count()) > 0) return undefined;
  const password = ctx.config.demoPassword ?? randomBytes(12).toString('base64url');
  let user: Awaited<ReturnType<typeof createUser>>;
  try {
    user = await createUser(ctx.deps.users, {
      username: DEMO_USERNAME,
      password,
      role: 'categorizer_admin',
      firstName: 'Demo',
      lastName: 'Analyst',
    });
  } catch (err) {
    // Several processes started at once on an empty database: another one made the account (and its project).
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
  if (ctx.config.seedDemoData) await queueDemoData(ctx.deps, user.id);
  return { username: DEMO_USERNAME, password, demoProject: ctx.config.seedDemoData };
}
