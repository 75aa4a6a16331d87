import {
  type createTolokaPoolInput,
  type MessageKey,
  TOLOKA_FEE_SHARE,
  type TolokaAudience,
  type TolokaPoolOutput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import {
  buildPoolFilter,
  completionCodeOf,
  createTolokaClient,
  EXTERNAL_LINK_FIELDS,
  externalLinkProject,
  type TolokaClient,
  TolokaError,
} from '../../integrations/toloka/client.ts';
import {
  activeRecruitingToken,
  recruitingTokenById,
  tolokaBaseUrl,
} from '../recruiting-tokens/recruiting-tokens.service.ts';
import type { PlatformAssignments } from './acceptance.service.ts';
import { loadResearch, type Research } from './research.ts';

/**
 * A research's Toloka pool (issue 14, item 4; spec sections 2, 4, 8). For a research of a launched project that
 * recruits on Toloka or Yandex tasks, with a quota link: the Toloka project (an external-link task: the worker
 * opens the quota link and types back the completion code) and its pool (reward, overlap, audience filters), made
 * with the user's active Toloka token; run (opened) and stopped (closed) through Toloka's asynchronous operations.
 * Every state shown is Toloka's own, read when asked. The spec's errors: 'Not enough funds' (a balance below the
 * pool's cost before opening, or the pool closed for NOT_ENOUGH_BALANCE), 'Toloka start error', 'no token found',
 * 'first bind the token', 'not enough data to launch'.
 */
export type TolokaPoolsDeps = Pick<
  Deps,
  'access' | 'recruiting' | 'tolokaPools' | 'recruitingTokens' | 'config' | 'log'
>;

const TOLOKA_PLATFORMS = new Set(['toloka', 'yandex_tasks']);

export type PoolRow = NonNullable<Awaited<ReturnType<Deps['tolokaPools']['find']>>>;

/** What keeps the research from having a pool now (message keys). */
function problemsOf(research: Research): MessageKey[] {
  const problems: MessageKey[] = [];
  if (!TOLOKA_PLATFORMS.has(research.platform)) problems.push('pool.wrongPlatform');
  if (research.project_status !== 'active') problems.push('pool.notLaunched');
  if (!research.link_token) problems.push('pool.noQuotaLink');
  return problems;
}

const costOf = (reward: number, overlap: number) => Math.round(reward * overlap * (1 + TOLOKA_FEE_SHARE) * 100) / 100;

/** A Toloka failure as the spec's message: a refused pool start, or the service out of reach. */
function tolokaFailure(error: unknown, key: MessageKey): AppError {
  if (error instanceof TolokaError && error.code === 'NOT_ENOUGH_BALANCE') {
    return new AppError('invalid_state', { message: 'pool.notEnoughFunds' });
  }
  if (error instanceof TolokaError && (error.code === 'NETWORK' || error.status >= 500)) {
    return new AppError('service_unavailable', { message: 'pool.unavailable' });
  }
  if (error instanceof TolokaError && (error.status === 401 || error.status === 403)) {
    return new AppError('invalid_state', { message: 'oauth.tolokaRejected' });
  }
  return new AppError('invalid_state', { message: key });
}

function clientFor(deps: TolokaPoolsDeps, token: { environment: 'production' | 'sandbox'; secret: string }) {
  return createTolokaClient({ baseUrl: tolokaBaseUrl(deps.config, token.environment), token: token.secret });
}

/** The client of the token the pool was made with ('no token found' when it is gone or no longer the user's). */
async function poolClient(deps: TolokaPoolsDeps, user: User, pool: PoolRow): Promise<TolokaClient> {
  const token = pool.token_id ? await recruitingTokenById(deps, user.id, pool.token_id) : null;
  if (!token) throw new AppError('invalid_state', { message: 'oauth.notFound' });
  return clientFor(deps, token);
}

/** GET /api/cabinet/campaigns/{id}/toloka/ */
export async function tolokaPool(
  deps: TolokaPoolsDeps,
  user: User,
  campaignId: string,
  origin: string,
): Promise<TolokaPoolOutput> {
  const research = await loadResearch(deps, user, campaignId);
  const row = await deps.tolokaPools.find(campaignId);
  const problems = problemsOf(research);
  // The pool's own token, or (no pool yet) the one a pool would be made with.
  const token = row?.token_id
    ? await recruitingTokenById(deps, user.id, row.token_id)
    : await activeRecruitingToken(deps, user.id, 'toloka');
  const info = token ? await deps.recruitingTokens.find(user.id, token.id) : undefined;
  let balance: number | null = null;
  let offline = false;
  let status = row?.status ?? null;
  let reason = row?.last_close_reason ?? null;
  if (token) {
    const client = clientFor(deps, token);
    try {
      const [requester, pool] = await Promise.all([
        client.requester(),
        row ? client.getPool(row.pool_id) : Promise.resolve(null),
      ]);
      balance = requester.balance;
      if (row && pool) {
        status = pool.status;
        reason = pool.last_close_reason ?? null;
        if (status !== row.status || reason !== row.last_close_reason) {
          await deps.tolokaPools.setState(campaignId, status, reason);
        }
      }
    } catch (error) {
      deps.log.warn({ err: error, campaign: campaignId }, 'Toloka did not answer for the pool state');
      offline = true;
    }
  } else {
    problems.push(row ? 'oauth.notFound' : 'oauth.bindFirst');
  }
  const open = status === 'OPEN';
  return {
    pool: row
      ? {
          pool_id: row.pool_id,
          toloka_project_id: row.toloka_project_id,
          environment: row.environment,
          title: row.title,
          reward: row.reward,
          overlap: row.overlap,
          audience: row.audience,
          status: status ?? row.status,
          last_close_reason: reason,
          cost: costOf(row.reward, row.overlap),
          created_at: row.created_at.toISOString(),
        }
      : null,
    balance,
    token: info && token ? { description: info.description, environment: token.environment } : null,
    quota_link: research.link_token ? `${origin}/project-research/${research.link_token}` : null,
    quota: research.link_quota ?? null,
    problems,
    offline,
    can: {
      create: !row && problems.length === 0,
      open: !!row && !!token && !open && status !== 'ARCHIVED' && research.project_status === 'active',
      close: !!row && !!token && open,
    },
  };
}

/** POST /api/cabinet/campaigns/{id}/toloka/ — the Toloka project and (closed) pool with one task: the quota link. */
export async function createTolokaPool(
  deps: TolokaPoolsDeps,
  user: User,
  campaignId: string,
  input: z.infer<typeof createTolokaPoolInput>,
  origin: string,
): Promise<void> {
  const research = await loadResearch(deps, user, campaignId);
  if (await deps.tolokaPools.find(campaignId)) throw new AppError('conflict', { message: 'pool.exists' });
  const problems = problemsOf(research);
  if (problems.length) {
    throw new AppError('invalid_state', { message: 'pool.notEnoughData', fields: { pool: problems[0] as MessageKey } });
  }
  const token = await activeRecruitingToken(deps, user.id, 'toloka');
  if (!token) throw new AppError('invalid_state', { message: 'oauth.bindFirst' });
  const overlap = input.overlap ?? research.link_quota;
  if (!overlap) {
    throw new AppError('validation_failed', {
      message: 'pool.notEnoughData',
      fields: { overlap: 'validation.required' },
    });
  }
  const client = clientFor(deps, token);
  const audience: TolokaAudience = {
    sex: input.sex,
    age_min: input.age_min,
    age_max: input.age_max,
    countries: input.countries,
  };
  const link = `${origin}/project-research/${research.link_token}`;
  try {
    const project = await client.createProject(
      externalLinkProject({
        publicName: input.title,
        publicDescription: input.title,
        publicInstructions: input.instruction || input.title,
      }),
    );
    const filter = buildPoolFilter({
      gender: input.sex === 'man' ? 'MALE' : input.sex === 'woman' ? 'FEMALE' : undefined,
      ageMin: input.age_min ?? undefined,
      ageMax: input.age_max ?? undefined,
      countries: input.countries,
    });
    const pool = await client.createPool({
      project_id: project.id,
      private_name: `${research.title} (${campaignId})`,
      may_contain_adult_content: false,
      reward_per_assignment: input.reward,
      assignment_max_duration_seconds: input.minutes * 60,
      will_expire: new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString(),
      defaults: { default_overlap_for_new_task_suites: overlap, default_overlap_for_new_tasks: overlap },
      mixer_config: { real_tasks_count: 1, golden_tasks_count: 0, training_tasks_count: 0 },
      auto_accept_solutions: false,
      auto_accept_period_day: 7,
      ...(filter ? { filter } : {}),
    });
    await client.createTask({ pool_id: pool.id, input_values: { [EXTERNAL_LINK_FIELDS.link]: link }, overlap });
    const made = await deps.tolokaPools.insert({
      campaign_id: campaignId,
      token_id: token.id,
      environment: token.environment,
      toloka_project_id: project.id,
      pool_id: pool.id,
      title: input.title,
      reward: input.reward,
      overlap,
      audience,
      status: pool.status,
      created_by: user.id,
    });
    if (!made) throw new AppError('conflict', { message: 'pool.exists' });
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.log.warn({ err: error, campaign: campaignId }, 'Toloka pool could not be made');
    throw tolokaFailure(error, 'pool.startError');
  }
}

/**
 * POST /api/cabinet/campaigns/{id}/toloka/open/ — runs the pool: refused with 'Not enough funds' when the
 * requester's balance is below the pool's cost, or when Toloka closes it for NOT_ENOUGH_BALANCE.
 */
export async function openTolokaPool(deps: TolokaPoolsDeps, user: User, campaignId: string): Promise<void> {
  const research = await loadResearch(deps, user, campaignId);
  const row = await deps.tolokaPools.find(campaignId);
  if (!row) throw new AppError('not_found', { message: 'pool.notFound' });
  if (research.project_status !== 'active') {
    throw new AppError('invalid_state', { message: 'pool.notEnoughData', fields: { pool: 'pool.notLaunched' } });
  }
  const client = await poolClient(deps, user, row);
  try {
    const { balance } = await client.requester();
    if (balance < costOf(row.reward, row.overlap))
      throw new AppError('invalid_state', { message: 'pool.notEnoughFunds' });
    const pool = await client.openPoolAndWait(row.pool_id);
    await deps.tolokaPools.setState(campaignId, pool.status, pool.last_close_reason ?? null);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof TolokaError && error.code === 'NOT_ENOUGH_BALANCE') {
      await deps.tolokaPools.setState(campaignId, 'CLOSED', 'NOT_ENOUGH_BALANCE');
    }
    deps.log.warn({ err: error, campaign: campaignId }, 'Toloka pool could not be opened');
    throw tolokaFailure(error, 'pool.startError');
  }
}

/** POST /api/cabinet/campaigns/{id}/toloka/close/ — stops the pool. */
export async function closeTolokaPool(deps: TolokaPoolsDeps, user: User, campaignId: string): Promise<void> {
  await loadResearch(deps, user, campaignId);
  const row = await deps.tolokaPools.find(campaignId);
  if (!row) throw new AppError('not_found', { message: 'pool.notFound' });
  const client = await poolClient(deps, user, row);
  try {
    const pool = await client.closePoolAndWait(row.pool_id);
    await deps.tolokaPools.setState(campaignId, pool.status, pool.last_close_reason ?? null);
  } catch (error) {
    deps.log.warn({ err: error, campaign: campaignId }, 'Toloka pool could not be closed');
    throw tolokaFailure(error, 'pool.startError');
  }
}

const TOLOKA_STATUS = { SUBMITTED: 'submitted', ACCEPTED: 'accepted', REJECTED: 'rejected' } as const;

/** The pool's assignments for acceptance (issue 14, item 5), through the token the pool was made with. */
export async function tolokaAssignments(
  deps: TolokaPoolsDeps,
  user: User,
  pool: PoolRow,
): Promise<PlatformAssignments> {
  const client = await poolClient(deps, user, pool);
  return {
    async list() {
      const assignments = await client.listAssignments({
        pool_id: pool.pool_id,
        status: ['SUBMITTED', 'ACCEPTED', 'REJECTED'],
        limit: 300,
      });
      return assignments.flatMap((a) => {
        const status = TOLOKA_STATUS[a.status as keyof typeof TOLOKA_STATUS];
        return status ? [{ id: a.id, worker_id: a.user_id, code: completionCodeOf(a) ?? null, status }] : [];
      });
    },
    async send(decision, id, comment) {
      if (decision === 'accept') await client.acceptAssignment(id, comment);
      else await client.rejectAssignment(id, comment);
    },
    // No longer SUBMITTED in Toloka.
    alreadyDecided: (error) => error instanceof TolokaError && error.code === 'INAPPROPRIATE_STATUS',
    unavailable: (error) =>
      error instanceof TolokaError && (error.code === 'NETWORK' || error.status === 429 || error.status >= 500),
    failure: (error) => tolokaFailure(error, 'pool.unavailable'),
    close() {},
  };
}
