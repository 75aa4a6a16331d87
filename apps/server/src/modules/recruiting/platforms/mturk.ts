import { type CreateMturkHitInput, type MessageKey, mturkCost } from '@emolens/contracts';
import type { Config } from '../../../config.ts';
import type { Deps } from '../../../context.ts';
import { AppError } from '../../../http/errors.ts';
import { createMturkClient, type MturkClient, MturkError, type MturkHit } from '../../../integrations/mturk/client.ts';
import { CHECK_TIMEOUT_MS, tokenUnreachable } from './check.ts';
import type { JobPlatform, JobSession, RecruitingPlatformAdapter } from './platform.ts';

/**
 * Amazon Mechanical Turk (issue 14, items 3 and 6): a research's ExternalQuestion HIT that frames the quota link
 * (MTurk adds assignmentId, hitId, workerId and turkSubmitTo; the respondent's end posts the completion code back to
 * MTurk), made with the user's active Amazon token in its environment, and stopped by expiring it. The HIT is made
 * only when the balance covers it, and made once: CreateHIT's idempotency token is the research, so a retry after a
 * lost answer finds the HIT made rather than making a second. MTurk frames only HTTPS pages.
 */
type HitRow = NonNullable<Awaited<ReturnType<Deps['mturkHits']['find']>>>;
type HitInput = Required<Omit<CreateMturkHitInput, 'max_assignments'>>;

/** Seconds after submission until MTurk approves an assignment on its own: a week for processing and review. */
const AUTO_APPROVAL_SECONDS = 7 * 24 * 3600;
const HIT_EXISTS = 'AWS.MechanicalTurk.HitAlreadyExists';
const STATUS = { Submitted: 'submitted', Approved: 'accepted', Rejected: 'rejected' } as const;

/** MTurk's endpoint override of the configuration; undefined: the environment's own endpoint. */
export function mturkEndpoint(config: Config): string | undefined {
  return config.mturkEndpoint;
}

const previewUrl = (environment: 'production' | 'sandbox', groupId: string | null) =>
  groupId
    ? `https://${environment === 'sandbox' ? 'workersandbox' : 'worker'}.mturk.com/mturk/preview?groupId=${encodeURIComponent(groupId)}`
    : null;

const unavailable = (error: unknown) =>
  error instanceof MturkError && (error.retryable || error.status === undefined || error.status === 429);

/** An MTurk failure as a message: funds short, the keys refused, the service out of reach, or `key`. */
function failure(error: unknown, key: MessageKey): AppError {
  if (error instanceof MturkError && error.code === 'AWS.MechanicalTurk.InsufficientFunds') {
    return new AppError('invalid_state', { message: 'pool.notEnoughFunds' });
  }
  if (unavailable(error)) return new AppError('service_unavailable', { message: 'hit.unavailable' });
  if (error instanceof MturkError && (error.status === 401 || error.status === 403)) {
    return new AppError('invalid_state', { message: 'oauth.mturkRejected' });
  }
  return new AppError('invalid_state', { message: key });
}

function session(deps: Pick<Deps, 'mturkHits'>, client: MturkClient): JobSession<HitRow, MturkHit, HitInput> {
  const store = async (row: HitRow, hit: MturkHit) => {
    const status = hit.status ?? row.status;
    const expiresAt = hit.expiration ?? row.expires_at;
    if (status !== row.status || expiresAt?.getTime() !== row.expires_at?.getTime()) {
      await deps.mturkHits.setState(row.campaign_id, status, expiresAt);
    }
  };
  return {
    balance: async () => Number((await client.accountBalance()).availableBalance),
    async read(row) {
      const hit = await client.getHit(row.hit_id);
      await store(row, hit);
      return hit;
    },
    async create(input) {
      const { availableBalance } = await client.accountBalance();
      if (Number(availableBalance) < mturkCost(input.reward, input.respondents)) {
        throw new AppError('invalid_state', { message: 'pool.notEnoughFunds' });
      }
      let hit: MturkHit;
      try {
        hit = await client.createExternalHit({
          title: input.title,
          description: input.description,
          keywords: input.keywords || undefined,
          reward: input.reward.toFixed(2),
          maxAssignments: input.respondents,
          lifetimeSeconds: input.days * 24 * 3600,
          assignmentDurationSeconds: input.minutes * 60,
          externalUrl: input.link,
          frameHeight: 0,
          autoApprovalDelaySeconds: AUTO_APPROVAL_SECONDS,
          requesterAnnotation: input.researchId,
          uniqueRequestToken: `emolens-${input.researchId}`,
        });
      } catch (error) {
        // Made by an earlier attempt whose answer was lost: MTurk names it ("… HITId: X").
        const made =
          error instanceof MturkError && error.code === HIT_EXISTS ? /HITId:\s*(\w+)/.exec(error.message) : null;
        if (!made?.[1]) throw error;
        hit = await client.getHit(made[1]);
      }
      return deps.mturkHits.insert({
        campaign_id: input.researchId,
        token_id: input.tokenId,
        environment: input.environment,
        hit_id: hit.hitId,
        group_id: hit.groupId,
        title: input.title,
        reward: input.reward,
        max_assignments: hit.maxAssignments ?? input.respondents,
        status: hit.status ?? 'Assignable',
        expires_at: hit.expiration,
        created_by: input.userId,
      });
    },
    // expire: stops offering the HIT (submitted work can still be reviewed).
    async act(_action, row) {
      await client.expireHit(row.hit_id);
      const hit = await client.getHit(row.hit_id);
      await deps.mturkHits.setState(row.campaign_id, hit.status ?? row.status, hit.expiration);
    },
    assignments: (row) => ({
      async list() {
        const assignments = await client.listAssignments(row.hit_id);
        return assignments.flatMap((a) => {
          const status = STATUS[a.status as keyof typeof STATUS];
          return status ? [{ id: a.assignmentId, worker_id: a.workerId, code: a.completionCode, status }] : [];
        });
      },
      async send(decision, id, comment) {
        if (decision === 'accept') await client.approve(id, comment);
        else await client.reject(id, comment);
      },
      // No longer Submitted in MTurk (approved, rejected or auto-approved meanwhile).
      alreadyDecided: (error) =>
        error instanceof MturkError && error.code === 'AWS.MechanicalTurk.InvalidAssignmentState',
      unavailable,
      failure: (error) => failure(error, 'hit.unavailable'),
    }),
    close: () => client.destroy(),
  };
}

/** The assignment counts of the HIT as MTurk gave them, and those submitted and waiting for a decision. */
function countsOf(row: HitRow, hit: MturkHit | null) {
  if (!hit) return { available: null, pending: null, submitted: null, completed: null };
  const { assignmentsAvailable: available, assignmentsPending: pending, assignmentsCompleted: completed } = hit;
  const known = available !== null && pending !== null && completed !== null;
  const submitted = known
    ? Math.max(0, (hit.maxAssignments ?? row.max_assignments) - available - pending - completed)
    : null;
  return { available, pending, submitted, completed };
}

const expiryOf = (row: HitRow | undefined, hit: MturkHit | null) => hit?.expiration ?? row?.expires_at ?? null;

function keysClient(config: Config, keys: { accessKeyId: string; secretAccessKey: string }, sandbox: boolean) {
  return { ...keys, sandbox, endpoint: mturkEndpoint(config) };
}

const hits: JobPlatform<HitRow, MturkHit, HitInput> = {
  platform: 'mturk',
  label: 'MTurk HIT',
  job: 'hit',
  respondentsField: 'max_assignments',
  messages: {
    notFound: 'hit.notFound',
    exists: 'hit.exists',
    notLaunched: 'hit.notLaunched',
    startError: 'hit.startError',
    unavailable: 'hit.unavailable',
  },
  find: (deps, researchId) => deps.mturkHits.find(researchId),
  problems(research, origin) {
    const problems: MessageKey[] = [];
    if (research.platform !== 'amazon') problems.push('hit.wrongPlatform');
    if (research.project_status !== 'active') problems.push('hit.notLaunched');
    if (!research.link_token) problems.push('pool.noQuotaLink');
    if (!origin.startsWith('https://')) problems.push('hit.httpsRequired');
    return problems;
  },
  connect(deps, token) {
    const keys = JSON.parse(token.secret) as { access_key_id: string; secret_access_key: string };
    const options = keysClient(
      deps.config,
      { accessKeyId: keys.access_key_id, secretAccessKey: keys.secret_access_key },
      token.environment === 'sandbox',
    );
    return session(deps, createMturkClient({ ...options, maxAttempts: 3 }));
  },
  present(row, hit) {
    const expiresAt = expiryOf(row, hit);
    return {
      hit_id: row.hit_id,
      group_id: row.group_id,
      preview_url: previewUrl(row.environment, row.group_id),
      environment: row.environment,
      title: row.title,
      reward: row.reward,
      max_assignments: row.max_assignments,
      status: hit?.status ?? row.status,
      expires_at: expiresAt?.toISOString() ?? null,
      expired: !!expiresAt && expiresAt.getTime() <= Date.now(),
      assignments: countsOf(row, hit),
      cost: mturkCost(row.reward, row.max_assignments),
      created_at: row.created_at.toISOString(),
    };
  },
  can(row, hit, hasToken) {
    const expiresAt = expiryOf(row, hit);
    return { expire: !!row && hasToken && !(!!expiresAt && expiresAt.getTime() <= Date.now()) };
  },
  actions: { expire: { error: 'hit.expireError', verb: 'expired' } },
  failure,
  token: {
    service: 'Amazon Mechanical Turk',
    /** MTurk accepts the keys when it answers the account's balance. */
    async check(deps, input) {
      const keys = { accessKeyId: String(input.access_key_id), secretAccessKey: String(input.secret_access_key) };
      const client = createMturkClient({
        ...keysClient(deps.config, keys, input.environment === 'sandbox'),
        maxAttempts: 2,
        requestTimeoutMs: CHECK_TIMEOUT_MS,
      });
      try {
        await client.accountBalance();
      } catch (error) {
        const status = error instanceof MturkError ? error.status : undefined;
        if (error instanceof MturkError && status !== undefined && status >= 400 && status < 500 && status !== 429) {
          deps.log.info({ service: 'mturk', code: error.code, status }, 'recruiting token refused by the service');
          // An unknown key id, or a known one signed with another secret: the field at fault is marked.
          const field = /Unrecognized|InvalidClientTokenId/i.test(error.code)
            ? 'access_key_id'
            : /Signature/i.test(error.code)
              ? 'secret_access_key'
              : null;
          throw new AppError('validation_failed', {
            message: 'oauth.mturkRejected',
            ...(field ? { fields: { [field]: 'oauth.mturkRejected' } } : {}),
          });
        }
        throw tokenUnreachable(deps, 'mturk', 'Amazon Mechanical Turk', error);
      } finally {
        client.destroy();
      }
    },
    stored: (input) => ({
      secret: JSON.stringify({ access_key_id: input.access_key_id, secret_access_key: input.secret_access_key }),
      hint: String(input.access_key_id),
    }),
    same: (input, existing) => existing.hint === input.access_key_id,
  },
};

/** Amazon: the HIT, and the end that posts the assignment back to MTurk. */
export const mturk: RecruitingPlatformAdapter = {
  projectPlatforms: ['amazon'],
  job: hits as unknown as JobPlatform,
  end({ withCode, panel }) {
    const { turkSubmitTo, assignmentId } = panel;
    if (!turkSubmitTo || !assignmentId) return withCode;
    return {
      ...withCode,
      mturk: { action: `${new URL(turkSubmitTo).origin}/mturk/externalSubmit`, assignment_id: assignmentId },
    };
  },
};
