import {
  type CreateTolokaPoolInput,
  type MessageKey,
  type RecruitingEnvironment,
  TOLOKA_HINT_CHARS,
  type TolokaAudience,
  tolokaCost,
} from '@emolens/contracts';
import type { Config } from '../../../config.ts';
import type { Deps } from '../../../context.ts';
import { AppError } from '../../../http/errors.ts';
import {
  completionCodeOf,
  createTolokaClient,
  TOLOKA_PRODUCTION_URL,
  TOLOKA_SANDBOX_URL,
  type TolokaClient,
} from '../../../integrations/toloka/client.ts';
import { isTolokaAuthError, TolokaError } from '../../../integrations/toloka/errors.ts';
import { buildPoolFilter, EXTERNAL_LINK_FIELDS, externalLinkProject } from '../../../integrations/toloka/project.ts';
import type { TolokaPool } from '../../../integrations/toloka/schemas.ts';
import { CHECK_TIMEOUT_MS, tokenUnreachable } from './check.ts';
import type { JobPlatform, JobSession, RecruitingPlatformAdapter } from './platform.ts';

/**
 * Toloka (issue 14, items 3–5; spec sections 2, 4, 8): a research's pool — an external-link project (the worker opens
 * the quota link and types back the completion code) with one pool (reward, overlap, audience filters) — made
 * closed with the user's active Toloka token, run (opened) and stopped (closed) through Toloka's asynchronous
 * operations. The spec's errors: 'Not enough funds' (a balance below the pool's cost before opening, or the pool
 * closed for NOT_ENOUGH_BALANCE), 'Toloka start error', 'no token found', 'first bind the token', 'not enough data
 * to launch'. Its respondents are shown the code at the end (the default).
 */
type PoolRow = NonNullable<Awaited<ReturnType<Deps['tolokaPools']['find']>>>;
type Live = Pick<TolokaPool, 'status' | 'last_close_reason'> | null;
type PoolInput = Required<Omit<CreateTolokaPoolInput, 'overlap'>>;

const PROJECT_PLATFORMS = ['toloka', 'yandex_tasks'] as const;
const STATUS = { SUBMITTED: 'submitted', ACCEPTED: 'accepted', REJECTED: 'rejected' } as const;

/** Toloka's API host of an environment (the configuration may point it elsewhere, e.g. at a test server). */
export function tolokaBaseUrl(config: Config, environment: RecruitingEnvironment): string {
  return environment === 'sandbox'
    ? (config.tolokaSandboxBaseUrl ?? TOLOKA_SANDBOX_URL)
    : (config.tolokaBaseUrl ?? TOLOKA_PRODUCTION_URL);
}

const unavailable = (error: unknown) =>
  error instanceof TolokaError && (error.code === 'NETWORK' || error.status === 429 || error.status >= 500);

/** A Toloka failure as the spec's message: a refused pool start, or the service out of reach. */
function failure(error: unknown, key: MessageKey): AppError {
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

function session(deps: Pick<Deps, 'tolokaPools'>, client: TolokaClient): JobSession<PoolRow, Live, PoolInput> {
  const store = (researchId: string, pool: Live) =>
    deps.tolokaPools.setState(researchId, pool?.status ?? 'CLOSED', pool?.last_close_reason ?? null);
  return {
    balance: async () => (await client.requester()).balance,
    async read(row) {
      const pool = await client.getPool(row.pool_id);
      if (pool.status !== row.status || (pool.last_close_reason ?? null) !== row.last_close_reason) {
        await store(row.campaign_id, pool);
      }
      return pool;
    },
    async create(input) {
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
      const overlap = input.respondents;
      const pool = await client.createPool({
        project_id: project.id,
        private_name: `${input.research.title} (${input.researchId})`,
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
      await client.createTask({
        pool_id: pool.id,
        input_values: { [EXTERNAL_LINK_FIELDS.link]: input.link },
        overlap,
      });
      const audience: TolokaAudience = {
        sex: input.sex,
        age_min: input.age_min,
        age_max: input.age_max,
        countries: input.countries,
      };
      return deps.tolokaPools.insert({
        campaign_id: input.researchId,
        token_id: input.tokenId,
        environment: input.environment,
        toloka_project_id: project.id,
        pool_id: pool.id,
        title: input.title,
        reward: input.reward,
        overlap,
        audience,
        status: pool.status,
        created_by: input.userId,
      });
    },
    async act(action, row) {
      if (action === 'close') return store(row.campaign_id, await client.closePoolAndWait(row.pool_id));
      // open: refused with 'Not enough funds' below the pool's cost, or when Toloka closes it for NOT_ENOUGH_BALANCE.
      const { balance } = await client.requester();
      if (balance < tolokaCost(row.reward, row.overlap)) {
        throw new AppError('invalid_state', { message: 'pool.notEnoughFunds' });
      }
      try {
        await store(row.campaign_id, await client.openPoolAndWait(row.pool_id));
      } catch (error) {
        if (error instanceof TolokaError && error.code === 'NOT_ENOUGH_BALANCE') {
          await store(row.campaign_id, { status: 'CLOSED', last_close_reason: 'NOT_ENOUGH_BALANCE' });
        }
        throw error;
      }
    },
    assignments: (row) => ({
      async list() {
        const assignments = await client.listAssignments({
          pool_id: row.pool_id,
          status: ['SUBMITTED', 'ACCEPTED', 'REJECTED'],
          limit: 300,
        });
        return assignments.flatMap((a) => {
          const status = STATUS[a.status as keyof typeof STATUS];
          return status ? [{ id: a.id, worker_id: a.user_id, code: completionCodeOf(a) ?? null, status }] : [];
        });
      },
      async send(decision, id, comment) {
        if (decision === 'accept') await client.acceptAssignment(id, comment);
        else await client.rejectAssignment(id, comment);
      },
      // No longer SUBMITTED in Toloka.
      alreadyDecided: (error) => error instanceof TolokaError && error.code === 'INAPPROPRIATE_STATUS',
      unavailable,
      failure: (error) => failure(error, 'pool.unavailable'),
    }),
    close() {},
  };
}

const pools: JobPlatform<PoolRow, Live, PoolInput> = {
  platform: 'toloka',
  label: 'Toloka pool',
  job: 'pool',
  respondentsField: 'overlap',
  messages: {
    notFound: 'pool.notFound',
    exists: 'pool.exists',
    notLaunched: 'pool.notLaunched',
    startError: 'pool.startError',
    unavailable: 'pool.unavailable',
  },
  find: (deps, researchId) => deps.tolokaPools.find(researchId),
  problems(research) {
    const problems: MessageKey[] = [];
    if (!(PROJECT_PLATFORMS as readonly string[]).includes(research.platform)) problems.push('pool.wrongPlatform');
    if (research.project_status !== 'active') problems.push('pool.notLaunched');
    if (!research.link_token) problems.push('pool.noQuotaLink');
    return problems;
  },
  connect: (deps, token) =>
    session(deps, createTolokaClient({ baseUrl: tolokaBaseUrl(deps.config, token.environment), token: token.secret })),
  present: (row, live) => ({
    pool_id: row.pool_id,
    toloka_project_id: row.toloka_project_id,
    environment: row.environment,
    title: row.title,
    reward: row.reward,
    overlap: row.overlap,
    audience: row.audience,
    status: live?.status ?? row.status,
    last_close_reason: live ? (live.last_close_reason ?? null) : row.last_close_reason,
    cost: tolokaCost(row.reward, row.overlap),
    created_at: row.created_at.toISOString(),
  }),
  can(row, live, hasToken, research) {
    const status = live?.status ?? row?.status;
    const open = status === 'OPEN';
    return {
      open: !!row && hasToken && !open && status !== 'ARCHIVED' && research.project_status === 'active',
      close: !!row && hasToken && open,
    };
  },
  actions: {
    open: { error: 'pool.startError', verb: 'opened', launched: true },
    close: { error: 'pool.startError', verb: 'closed' },
  },
  failure,
  token: {
    service: 'Toloka',
    /** Toloka accepts the token when it answers who the requester is. */
    async check(deps, input) {
      const client = createTolokaClient({
        baseUrl: tolokaBaseUrl(deps.config, input.environment),
        token: String(input.token),
        timeoutMs: CHECK_TIMEOUT_MS,
        maxRetryDelayMs: 2_000,
      });
      try {
        await client.requester();
      } catch (error) {
        if (error instanceof TolokaError && (isTolokaAuthError(error) || error.status === 403)) {
          deps.log.info({ service: 'toloka', code: error.code }, 'recruiting token refused by the service');
          throw new AppError('validation_failed', {
            message: 'oauth.tolokaRejected',
            fields: { token: 'oauth.tolokaRejected' },
          });
        }
        throw tokenUnreachable(deps, 'toloka', 'Toloka', error);
      }
    },
    stored: (input) => ({ secret: String(input.token), hint: String(input.token).slice(-TOLOKA_HINT_CHARS) }),
    same: (input, existing) => existing.secret === input.token,
  },
};

/** Toloka and Yandex tasks behind the recruiting-platform interface. */
export const toloka: RecruitingPlatformAdapter = {
  projectPlatforms: PROJECT_PLATFORMS,
  job: pools as unknown as JobPlatform,
};
