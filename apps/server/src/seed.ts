import { randomBytes } from 'node:crypto';
import type { AppContext } from './context.ts';
import { createUser } from './modules/users/users.service.ts';

export const DEMO_USERNAME = 'demo';

/**
 * Creates the demo account on an installation that has no users yet. Returns its credentials so
 * the caller prints them once; they are never logged and never stored in clear. It is a categorizer admin
 * (spec section 6): the installation's first user keeps the categories directory, which a research's
 * categories are chosen from; like a customer, it sees only its own projects.
 */
export async function seedDemoAccount(ctx: AppContext): Promise<{ username: string; password: string } | undefined> {
  if (!ctx.config.seedDemo || (await ctx.deps.users.count()) > 0) return undefined;
  const password = ctx.config.demoPassword ?? randomBytes(12).toString('base64url');
  await createUser(ctx.deps.users, {
    username: DEMO_USERNAME,
    password,
    role: 'categorizer_admin',
    firstName: 'Demo',
    lastName: 'Analyst',
  });
  return { username: DEMO_USERNAME, password };
}
