import { type createMturkHitInput, type MessageKey, type MturkHitOutput, mturkCost } from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { createMturkClient, type MturkClient, MturkError } from '../../integrations/mturk/client.ts';
import {
  activeRecruitingToken,
  mturkEndpoint,
  recruitingTokenById,
} from '../recruiting-tokens/recruiting-tokens.service.ts';
import type { PlatformAssignments } from './acceptance.service.ts';
import { loadResearch, type Research } from './research.ts';

/**
 * A research's Amazon Mechanical Turk HIT (issue 14, item 6). For a research of a launched Amazon project with a
 * quota link: an ExternalQuestion HIT that frames the quota link (MTurk adds assignmentId, hitId, workerId and
 * turkSubmitTo; the respondent's end posts the completion code back to MTurk), made with the user's active Amazon
 * token in its environment, and stopped by expiring it. Its state is MTurk's, read when asked. The HIT is made only
 * when the balance covers it, and made once: CreateHIT's idempotency token is the research, so a retry after a lost
 * answer finds the HIT made rather than making a second.
 */
export type MturkHitsDeps = Pick<Deps, 'access' | 'recruiting' | 'mturkHits' | 'recruitingTokens' | 'config' | 'log'>;
type HitRow = NonNullable<Awaited<ReturnType<Deps['mturkHits']['find']>>>;
type Token = { id: string; environment: 'production' | 'sandbox'; secret: string };

/** Seconds after submission until MTurk approves an assignment on its own: a week for processing and review. */
const AUTO_APPROVAL_SECONDS = 7 * 24 * 3600;
const HIT_EXISTS = 'AWS.MechanicalTurk.HitAlreadyExists';

const previewUrl = (environment: 'production' | 'sandbox', groupId: string | null) =>
  groupId
    ? `https://${environment === 'sandbox' ? 'workersandbox' : 'worker'}.mturk.com/mturk/preview?groupId=${encodeURIComponent(groupId)}`
    : null;

/** What keeps the research from having a HIT now (message keys). MTurk frames only HTTPS pages. */
function problemsOf(research: Research, origin: string): MessageKey[] {
  const problems: MessageKey[] = [];
  if (research.platform !== 'amazon') problems.push('hit.wrongPlatform');
  if (research.project_status !== 'active') problems.push('hit.notLaunched');
  if (!research.link_token) problems.push('pool.noQuotaLink');
  if (!origin.startsWith('https://')) problems.push('hit.httpsRequired');
  return problems;
}

function clientFor(deps: MturkHitsDeps, token: Token): MturkClient {
  const keys = JSON.parse(token.secret) as { access_key_id: string; secret_access_key: string };
  return createMturkClient({
    accessKeyId: keys.access_key_id,
    secretAccessKey: keys.secret_access_key,
    sandbox: token.environment === 'sandbox',
    endpoint: mturkEndpoint(deps.config),
    maxAttempts: 3,
  });
}

/** The client of the token the HIT was made with ('no token found' when it is gone or no longer the user's). */
async function hitClient(deps: MturkHitsDeps, user: User, hit: HitRow): Promise<MturkClient> {
  const token = hit.token_id ? await recruitingTokenById(deps, user.id, hit.token_id) : null;
  if (!token) throw new AppError('invalid_state', { message: 'oauth.notFound' });
  return clientFor(deps, token);
}

const unavailable = (error: unknown) =>
  error instanceof MturkError && (error.retryable || error.status === undefined || error.status === 429);

/** An MTurk failure as a message: funds short, the keys refused, the service out of reach, or `key`. */
function mturkFailure(error: unknown, key: MessageKey): AppError {
  if (error instanceof MturkError && error.code === 'AWS.MechanicalTurk.InsufficientFunds') {
    return new AppError('invalid_state', { message: 'pool.notEnoughFunds' });
  }
  if (unavailable(error)) return new AppError('service_unavailable', { message: 'hit.unavailable' });
  if (error instanceof MturkError && (error.status === 401 || error.status === 403)) {
    return new AppError('invalid_state', { message: 'oauth.mturkRejected' });
  }
  return new AppError('invalid_state', { message: key });
}

/** GET /api/cabinet/campaigns/{id}/mturk/ */
export async function mturkHit(
  deps: MturkHitsDeps,
  user: User,
  campaignId: string,
  origin: string,
): Promise<MturkHitOutput> {
  const research = await loadResearch(deps, user, campaignId);
  const row = await deps.mturkHits.find(campaignId);
  const problems = problemsOf(research, origin);
  // The HIT's own token, or (no HIT yet) the one a HIT would be made with.
  const token = row?.token_id
    ? await recruitingTokenById(deps, user.id, row.token_id)
    : await activeRecruitingToken(deps, user.id, 'mturk');
  const info = token ? await deps.recruitingTokens.find(user.id, token.id) : undefined;
  let balance: number | null = null;
  let offline = false;
  let status = row?.status ?? null;
  let expiresAt = row?.expires_at ?? null;
  let counts: NonNullable<MturkHitOutput['hit']>['assignments'] = {
    available: null,
    pending: null,
    submitted: null,
    completed: null,
  };
  if (token) {
    const client = clientFor(deps, token);
    try {
      const [account, hit] = await Promise.all([
        client.accountBalance(),
        row ? client.getHit(row.hit_id) : Promise.resolve(null),
      ]);
      balance = Number(account.availableBalance);
      if (row && hit) {
        status = hit.status ?? status;
        expiresAt = hit.expiration ?? expiresAt;
        const { assignmentsAvailable: available, assignmentsPending: pending, assignmentsCompleted: completed } = hit;
        const known = available !== null && pending !== null && completed !== null;
        counts = {
          available,
          pending,
          submitted: known
            ? Math.max(0, (hit.maxAssignments ?? row.max_assignments) - available - pending - completed)
            : null,
          completed,
        };
        if (status !== row.status || expiresAt?.getTime() !== row.expires_at?.getTime()) {
          await deps.mturkHits.setState(campaignId, status ?? row.status, expiresAt);
        }
      }
    } catch (error) {
      deps.log.warn({ err: error, campaign: campaignId }, 'MTurk did not answer for the HIT state');
      offline = true;
    } finally {
      client.destroy();
    }
  } else {
    problems.push(row ? 'oauth.notFound' : 'oauth.bindFirst');
  }
  const expired = !!expiresAt && expiresAt.getTime() <= Date.now();
  return {
    hit: row
      ? {
          hit_id: row.hit_id,
          group_id: row.group_id,
          preview_url: previewUrl(row.environment, row.group_id),
          environment: row.environment,
          title: row.title,
          reward: row.reward,
          max_assignments: row.max_assignments,
          status: status ?? row.status,
          expires_at: expiresAt?.toISOString() ?? null,
          expired,
          assignments: counts,
          cost: mturkCost(row.reward, row.max_assignments),
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
      expire: !!row && !!token && !expired,
    },
  };
}

/**
 * POST /api/cabinet/campaigns/{id}/mturk/ — the HIT, offered at once to MTurk's workers. Refused with 'Not enough
 * funds' when the balance is below its cost (or MTurk says so); nothing is recorded unless MTurk made it.
 */
export async function createMturkHit(
  deps: MturkHitsDeps,
  user: User,
  campaignId: string,
  input: z.infer<typeof createMturkHitInput>,
  origin: string,
): Promise<void> {
  const research = await loadResearch(deps, user, campaignId);
  if (await deps.mturkHits.find(campaignId)) throw new AppError('conflict', { message: 'hit.exists' });
  const problems = problemsOf(research, origin);
  if (problems.length) {
    throw new AppError('invalid_state', { message: 'pool.notEnoughData', fields: { hit: problems[0] as MessageKey } });
  }
  const token = await activeRecruitingToken(deps, user.id, 'mturk');
  if (!token) throw new AppError('invalid_state', { message: 'oauth.bindFirst' });
  const maxAssignments = input.max_assignments ?? research.link_quota;
  if (!maxAssignments) {
    throw new AppError('validation_failed', {
      message: 'pool.notEnoughData',
      fields: { max_assignments: 'validation.required' },
    });
  }
  const client = clientFor(deps, token);
  const requestToken = `emolens-${campaignId}`;
  try {
    const { availableBalance } = await client.accountBalance();
    if (Number(availableBalance) < mturkCost(input.reward, maxAssignments)) {
      throw new AppError('invalid_state', { message: 'pool.notEnoughFunds' });
    }
    let hit: Awaited<ReturnType<MturkClient['createExternalHit']>>;
    try {
      hit = await client.createExternalHit({
        title: input.title,
        description: input.description,
        keywords: input.keywords || undefined,
        reward: input.reward.toFixed(2),
        maxAssignments,
        lifetimeSeconds: input.days * 24 * 3600,
        assignmentDurationSeconds: input.minutes * 60,
        externalUrl: `${origin}/project-research/${research.link_token}`,
        frameHeight: 0,
        autoApprovalDelaySeconds: AUTO_APPROVAL_SECONDS,
        requesterAnnotation: campaignId,
        uniqueRequestToken: requestToken,
      });
    } catch (error) {
      // Made by an earlier attempt whose answer was lost: MTurk names it ("… HITId: X").
      const made =
        error instanceof MturkError && error.code === HIT_EXISTS ? /HITId:\s*(\w+)/.exec(error.message) : null;
      if (!made?.[1]) throw error;
      hit = await client.getHit(made[1]);
    }
    const inserted = await deps.mturkHits.insert({
      campaign_id: campaignId,
      token_id: token.id,
      environment: token.environment,
      hit_id: hit.hitId,
      group_id: hit.groupId,
      title: input.title,
      reward: input.reward,
      max_assignments: hit.maxAssignments ?? maxAssignments,
      status: hit.status ?? 'Assignable',
      expires_at: hit.expiration,
      created_by: user.id,
    });
    if (!inserted) throw new AppError('conflict', { message: 'hit.exists' });
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.log.warn({ err: error, campaign: campaignId }, 'MTurk HIT could not be made');
    throw mturkFailure(error, 'hit.startError');
  } finally {
    client.destroy();
  }
}

/** POST /api/cabinet/campaigns/{id}/mturk/expire/ — stops offering the HIT (submitted work can still be reviewed). */
export async function expireMturkHit(deps: MturkHitsDeps, user: User, campaignId: string): Promise<void> {
  await loadResearch(deps, user, campaignId);
  const row = await deps.mturkHits.find(campaignId);
  if (!row) throw new AppError('not_found', { message: 'hit.notFound' });
  const client = await hitClient(deps, user, row);
  try {
    await client.expireHit(row.hit_id);
    const hit = await client.getHit(row.hit_id);
    await deps.mturkHits.setState(campaignId, hit.status ?? row.status, hit.expiration);
  } catch (error) {
    deps.log.warn({ err: error, campaign: campaignId }, 'MTurk HIT could not be expired');
    throw mturkFailure(error, 'hit.expireError');
  } finally {
    client.destroy();
  }
}

const MTURK_STATUS = { Submitted: 'submitted', Approved: 'accepted', Rejected: 'rejected' } as const;

/** The HIT's assignments for acceptance (approve / reject), through the token the HIT was made with. */
export async function mturkAssignments(deps: MturkHitsDeps, user: User, hit: HitRow): Promise<PlatformAssignments> {
  const client = await hitClient(deps, user, hit);
  return {
    async list() {
      const assignments = await client.listAssignments(hit.hit_id);
      return assignments.flatMap((a) => {
        const status = MTURK_STATUS[a.status as keyof typeof MTURK_STATUS];
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
    failure: (error) => mturkFailure(error, 'hit.unavailable'),
    close: () => client.destroy(),
  };
}
