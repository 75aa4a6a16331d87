import type { MessageKey, RecruitingPlatform, RecruitingStateOutput } from '@emolens/contracts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { activeRecruitingToken, recruitingTokenById } from '../recruiting-tokens/recruiting-tokens.service.ts';
import { jobPlatform } from './platforms/index.ts';
import type { JobDeps, JobPlatform, JobRow, PlatformToken } from './platforms/platform.ts';
import { loadResearch } from './research.ts';

/**
 * A research's pool or HIT on a recruiting platform (issue 14, items 4 and 6; issue 29, item 3), the same for every
 * platform with one (`platforms/`): for a research of a launched project that recruits there, with a quota link, it
 * is made with the user's active token of the platform, and its actions (run, stop, expire) go through the token it
 * was made with. Every state shown is the platform's own, read when asked; when the platform does not answer, the
 * stored one is shown as `offline`. 'no token found' when the pool's token is gone, 'first bind the token' when the
 * user has none active, 'not enough data to launch' when the research is short of something.
 */
export type RecruitingJobsDeps = JobDeps;

/** The token the pool or HIT was made with ('no token found' when it is gone or no longer the user's). */
async function tokenOf(deps: JobDeps, user: User, row: JobRow): Promise<PlatformToken> {
  const token = row.token_id ? await recruitingTokenById(deps, user.id, row.token_id) : null;
  if (!token) throw new AppError('invalid_state', { message: 'oauth.notFound' });
  return token;
}

/** The research's pool or HIT, when the user may manage the research; 404 when it has none. */
export async function loadJob(deps: JobDeps, user: User, platform: JobPlatform, researchId: string) {
  const research = await loadResearch(deps, user, researchId);
  const row = await platform.find(deps, researchId);
  if (!row) throw new AppError('not_found', { message: platform.messages.notFound });
  return { research, row };
}

/** Runs `work` in a session with the platform under `token`, closed after. */
export async function withSession<T>(
  deps: JobDeps,
  platform: JobPlatform,
  token: PlatformToken,
  work: (session: ReturnType<JobPlatform['connect']>) => Promise<T>,
): Promise<T> {
  const session = platform.connect(deps, token);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}

/** A session with the platform under the token the pool or HIT was made with. */
export async function jobSession<T>(
  deps: JobDeps,
  user: User,
  platform: JobPlatform,
  row: JobRow,
  work: (session: ReturnType<JobPlatform['connect']>) => Promise<T>,
): Promise<T> {
  return withSession(deps, platform, await tokenOf(deps, user, row), work);
}

/** GET /api/cabinet/campaigns/{id}/{platform}/ */
export async function recruitingJob<P extends RecruitingPlatform>(
  deps: JobDeps,
  user: User,
  name: P,
  researchId: string,
  origin: string,
): Promise<RecruitingStateOutput<P>> {
  const platform = jobPlatform(name);
  const research = await loadResearch(deps, user, researchId);
  const row = await platform.find(deps, researchId);
  const problems = platform.problems(research, origin);
  // The pool's own token, or (no pool yet) the one a pool would be made with.
  const token = row?.token_id
    ? await recruitingTokenById(deps, user.id, row.token_id)
    : await activeRecruitingToken(deps, user.id, name);
  const info = token ? await deps.recruitingTokens.find(user.id, token.id) : undefined;
  let balance: number | null = null;
  let offline = false;
  let live: unknown = null;
  if (token) {
    try {
      await withSession(deps, platform, token, async (session) => {
        const [requester, state] = await Promise.all([session.balance(), row ? session.read(row) : null]);
        balance = requester;
        live = state;
      });
    } catch (error) {
      deps.log.warn(
        { err: error, research: researchId },
        `${platform.label}: the platform did not answer for its state`,
      );
      offline = true;
    }
  } else {
    problems.push(row ? 'oauth.notFound' : 'oauth.bindFirst');
  }
  const state = {
    [platform.job]: row ? platform.present(row, live) : null,
    balance,
    token: info && token ? { description: info.description, environment: token.environment } : null,
    quota_link: research.link_token ? `${origin}/project-research/${research.link_token}` : null,
    quota: research.link_quota ?? null,
    problems,
    offline,
    can: { create: !row && problems.length === 0, ...platform.can(row, live, !!token, research) },
  };
  // The platform's own fields are its adapter's; the route checks the whole answer against the platform's contract.
  return state as RecruitingStateOutput<P>;
}

/**
 * POST /api/cabinet/campaigns/{id}/{platform}/ — the pool or HIT of the research, with its quota link as the task;
 * nothing is recorded unless the platform made it.
 */
export async function createRecruitingJob(
  deps: JobDeps,
  user: User,
  name: RecruitingPlatform,
  researchId: string,
  input: Record<string, unknown>,
  origin: string,
): Promise<void> {
  const platform = jobPlatform(name);
  const research = await loadResearch(deps, user, researchId);
  if (await platform.find(deps, researchId)) throw new AppError('conflict', { message: platform.messages.exists });
  const problems = platform.problems(research, origin);
  if (problems.length) {
    throw new AppError('invalid_state', {
      message: 'pool.notEnoughData',
      fields: { [platform.job]: problems[0] as MessageKey },
    });
  }
  const token = await activeRecruitingToken(deps, user.id, name);
  if (!token) throw new AppError('invalid_state', { message: 'oauth.bindFirst' });
  const respondents = (input[platform.respondentsField] as number | null) ?? research.link_quota;
  if (!respondents) {
    throw new AppError('validation_failed', {
      message: 'pool.notEnoughData',
      fields: { [platform.respondentsField]: 'validation.required' },
    });
  }
  const made = await withSession(deps, platform, token, async (session) => {
    try {
      return await session.create({
        ...input,
        research,
        researchId,
        respondents,
        link: `${origin}/project-research/${research.link_token}`,
        tokenId: token.id,
        environment: token.environment,
        userId: user.id,
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      deps.log.warn({ err: error, research: researchId }, `${platform.label} could not be made`);
      throw platform.failure(error, platform.messages.startError);
    }
  });
  if (!made) throw new AppError('conflict', { message: platform.messages.exists });
}

/** POST /api/cabinet/campaigns/{id}/{platform}/{action}/ — runs, stops or expires the pool or HIT. */
export async function actOnRecruitingJob(
  deps: JobDeps,
  user: User,
  name: RecruitingPlatform,
  researchId: string,
  action: string,
): Promise<void> {
  const platform = jobPlatform(name);
  const rule = platform.actions[action];
  if (!rule) throw new AppError('not_found', { message: platform.messages.notFound });
  const { research, row } = await loadJob(deps, user, platform, researchId);
  if (rule.launched && research.project_status !== 'active') {
    throw new AppError('invalid_state', {
      message: 'pool.notEnoughData',
      fields: { [platform.job]: platform.messages.notLaunched },
    });
  }
  await jobSession(deps, user, platform, row, async (session) => {
    try {
      await session.act(action, row);
    } catch (error) {
      if (error instanceof AppError) throw error;
      deps.log.warn({ err: error, research: researchId }, `${platform.label} could not be ${rule.verb}`);
      throw platform.failure(error, rule.error);
    }
  });
}
