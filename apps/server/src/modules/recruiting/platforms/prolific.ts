import { randomInt } from 'node:crypto';
import {
  type createProlificStudyInput,
  type MessageKey,
  OUTCOMES,
  type ProlificCodes,
  prolificCompletionUrl,
  prolificCost,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Config } from '../../../config.ts';
import type { Deps } from '../../../context.ts';
import { AppError } from '../../../http/errors.ts';
import {
  createProlificClient,
  isProlificAuthError,
  isProlificUnavailable,
  PROLIFIC_REJECTION_MIN_CHARS,
  PROLIFIC_URL,
  type ProlificClient,
  ProlificError,
  type ProlificRejectionCategory,
  type ProlificStudy,
  type ProlificStudyInput,
  type ProlificStudyTransition,
} from '../../../integrations/prolific/client.ts';
import { CHECK_TIMEOUT_MS, tokenUnreachable } from './check.ts';
import type { JobPlatform, JobSession, PlatformAssignment, RecruitingPlatformAdapter } from './platform.ts';

/**
 * Prolific (issue 33, item 2; docs/decisions/068-prolific.md): a research's study — a draft made with the user's
 * active Prolific token, whose external URL is the research's quota link with Prolific's URL parameters, with one
 * completion code per outcome and the action Prolific takes on it — published, paused, started again and stopped
 * through Prolific's transitions. A respondent who came from Prolific is sent at the end to Prolific's completion
 * page with the code of the session's outcome. Submissions are found by the submission id the link carried
 * (SESSION_ID) and approved, rejected (with a message and a category) or asked to return (a session that did not
 * complete) by the acceptance review.
 */
type StudyRow = NonNullable<Awaited<ReturnType<Deps['prolificStudies']['find']>>>;
type Live = Pick<ProlificStudy, 'status'> | null;
type StudyInput = z.output<typeof createProlificStudyInput>;

const PROJECT_PLATFORMS = ['prolific'] as const;
const TRANSITIONS: Record<string, ProlificStudyTransition> = {
  publish: 'PUBLISH',
  pause: 'PAUSE',
  start: 'START',
  stop: 'STOP',
};
const STATUS = { 'AWAITING REVIEW': 'submitted', APPROVED: 'accepted', REJECTED: 'rejected' } as const;
const CODE_TYPE = { complete: 'COMPLETED', screen_out: 'OTHER', quota_full: 'OTHER' } as const;
const RETURN_REASON = {
  complete: 'Thank you for taking part.',
  screen_out: "You did not meet the study's requirements, so the study ended early.",
  quota_full: 'The study had all the participants it needed, so it ended early.',
} as const;
/** Rejection categories by the decision's reason (Prolific requires one). */
const CATEGORY: Record<string, ProlificRejectionCategory> = {
  forged: 'BAD_CODE',
  other_research: 'BAD_CODE',
  duplicate: 'BAD_CODE',
  session_missing: 'NO_CODE',
  excluded: 'NO_DATA',
  not_complete: 'FAILED_INSTRUCTIONS',
};
const REJECTION_TAIL =
  ' This was decided by checking the session recorded during the study against the requirements stated in its description.';

/** Prolific's API host (the configuration may point it elsewhere, e.g. at a test server). */
export function prolificBaseUrl(config: Config): string {
  return config.prolificBaseUrl ?? PROLIFIC_URL;
}

/** A completion code: 8 capital letters and digits, without the ones read alike (0/O, 1/I). */
export function newCompletionCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from({ length: 8 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

/** The quota link with Prolific's URL parameters (Prolific fills in the placeholders). */
export function externalStudyUrl(link: string): string {
  const params = ['PROLIFIC_PID', 'STUDY_ID', 'SESSION_ID'].map((p) => `${p}={{%${p}%}}`).join('&');
  return `${link}${link.includes('?') ? '&' : '?'}${params}`;
}

/** A rejection's message: the reason told to the participant, made as long as Prolific requires. */
export function rejectionMessage(comment: string): string {
  const message = `${comment}${REJECTION_TAIL}`;
  return message.length >= PROLIFIC_REJECTION_MIN_CHARS ? message : message.padEnd(PROLIFIC_REJECTION_MIN_CHARS, '.');
}

/** A Prolific failure as the spec's message: out of reach, the token refused, funds short, or `key`. */
function failure(error: unknown, key: MessageKey): AppError {
  if (isProlificUnavailable(error)) return new AppError('service_unavailable', { message: 'study.unavailable' });
  if (isProlificAuthError(error)) return new AppError('invalid_state', { message: 'oauth.prolificRejected' });
  if (error instanceof ProlificError && /balance|fund/i.test(error.title ?? '')) {
    return new AppError('invalid_state', { message: 'pool.notEnoughFunds' });
  }
  if (error instanceof ProlificError && error.status >= 400 && error.status < 500 && error.status !== 404) {
    return new AppError('invalid_state', { message: key === 'study.startError' ? key : 'study.refused' });
  }
  return new AppError('invalid_state', { message: key });
}

function studyInput(
  input: StudyInput & { link: string; research: { title: string }; researchId: string; respondents: number },
  codes: ProlificCodes,
): ProlificStudyInput {
  return {
    name: input.title,
    internal_name: `${input.research.title} (${input.researchId})`,
    description: input.description,
    external_study_url: externalStudyUrl(input.link),
    prolific_id_option: 'url_parameters',
    completion_codes: OUTCOMES.map((outcome) => {
      const { code, action } = codes[outcome];
      return {
        code,
        code_type: CODE_TYPE[outcome],
        actor: 'participant' as const,
        actions: [action === 'REQUEST_RETURN' ? { action, return_reason: RETURN_REASON[outcome] } : { action }],
      };
    }),
    total_available_places: input.respondents,
    estimated_completion_time: input.minutes,
    reward: Math.round(input.reward * 100),
    device_compatibility: input.devices,
    peripheral_requirements: input.webcam ? ['camera'] : [],
  };
}

function session(deps: Pick<Deps, 'prolificStudies'>, client: ProlificClient): JobSession<StudyRow, Live, StudyInput> {
  const store = async (row: StudyRow, study: Live) => {
    if (study && study.status !== row.status) await deps.prolificStudies.setState(row.campaign_id, study.status);
  };
  return {
    balance: async () => null,
    async read(row) {
      const study = await client.getStudy(row.study_id);
      await store(row, study);
      return study;
    },
    async create(input) {
      const codes = Object.fromEntries(
        OUTCOMES.map((o) => [o, { code: newCompletionCode(), action: input.actions[o] }]),
      ) as ProlificCodes;
      const study = await client.createStudy(studyInput(input, codes));
      return deps.prolificStudies.insert({
        campaign_id: input.researchId,
        token_id: input.tokenId,
        environment: input.environment,
        study_id: study.id,
        title: input.title,
        reward: input.reward,
        places: input.respondents,
        minutes: input.minutes,
        completion_codes: codes,
        devices: input.devices,
        webcam: input.webcam,
        status: study.status,
        created_by: input.userId,
      });
    },
    async act(action, row) {
      const transition = TRANSITIONS[action];
      if (!transition) throw new AppError('not_found', { message: 'study.notFound' });
      await store(row, await client.transitionStudy(row.study_id, transition));
    },
    assignments: (row) => ({
      returns: true,
      async list() {
        const submissions = await client.listSubmissions(row.study_id);
        const sessions = await deps.prolificStudies.sessionsOfSubmissions(
          row.campaign_id,
          row.study_id,
          submissions.map((s) => s.id),
        );
        return submissions.flatMap((s): PlatformAssignment[] => {
          const known = STATUS[s.status as keyof typeof STATUS];
          // Asked to return on Prolific (by the code's action or by hand) and not decided otherwise since.
          const status = known === 'submitted' && s.return_requested ? 'returned' : known;
          if (!status) return [];
          return [
            {
              id: s.id,
              worker_id: s.participant_id ?? s.participant ?? '',
              code: s.study_code ?? s.entered_code ?? null,
              status,
              session_id: sessions.get(s.id) ?? null,
            },
          ];
        });
      },
      async send(decision, id, comment, reason) {
        if (decision === 'accept') await client.approve(id);
        else if (decision === 'return') await client.requestReturn(id, [comment]);
        else await client.reject(id, rejectionMessage(comment), CATEGORY[reason] ?? 'OTHER');
      },
      // Prolific's answer to a transition no longer possible is not told apart from other refusals: the next
      // review reads the submission's status and records it as decided on the platform.
      alreadyDecided: () => false,
      unavailable: isProlificUnavailable,
      failure: (error) => failure(error, 'study.unavailable'),
    }),
    close() {},
  };
}

const studies: JobPlatform<StudyRow, Live, StudyInput> = {
  platform: 'prolific',
  label: 'Prolific study',
  job: 'study',
  respondentsField: 'places',
  messages: {
    notFound: 'study.notFound',
    exists: 'study.exists',
    notLaunched: 'study.notLaunched',
    startError: 'study.startError',
    unavailable: 'study.unavailable',
  },
  find: (deps, researchId) => deps.prolificStudies.find(researchId),
  problems(research) {
    const problems: MessageKey[] = [];
    if (!(PROJECT_PLATFORMS as readonly string[]).includes(research.platform)) problems.push('study.wrongPlatform');
    if (research.project_status !== 'active') problems.push('study.notLaunched');
    if (!research.link_token) problems.push('pool.noQuotaLink');
    return problems;
  },
  connect: (deps, token) =>
    session(deps, createProlificClient({ baseUrl: prolificBaseUrl(deps.config), token: token.secret })),
  present: (row, live) => ({
    study_id: row.study_id,
    environment: row.environment,
    title: row.title,
    reward: row.reward,
    places: row.places,
    minutes: row.minutes,
    status: live?.status ?? row.status,
    completion_codes: row.completion_codes,
    devices: row.devices,
    webcam: row.webcam,
    cost: prolificCost(row.reward, row.places),
    created_at: row.created_at.toISOString(),
  }),
  can(row, live, hasToken, research) {
    const status = live?.status ?? row?.status;
    const ok = !!row && hasToken;
    const launched = research.project_status === 'active';
    return {
      publish: ok && status === 'UNPUBLISHED' && launched,
      pause: ok && status === 'ACTIVE',
      start: ok && status === 'PAUSED' && launched,
      stop: ok && (status === 'ACTIVE' || status === 'PAUSED'),
    };
  },
  actions: {
    publish: { error: 'study.transitionError', verb: 'published', launched: true },
    pause: { error: 'study.transitionError', verb: 'paused' },
    start: { error: 'study.transitionError', verb: 'started', launched: true },
    stop: { error: 'study.transitionError', verb: 'stopped' },
  },
  failure,
  token: {
    service: 'Prolific',
    /** Prolific accepts the token when it answers who the researcher is (GET /api/v1/users/me/). */
    async check(deps, input) {
      const client = createProlificClient({
        baseUrl: prolificBaseUrl(deps.config),
        token: String(input.token),
        timeoutMs: CHECK_TIMEOUT_MS,
        retryBaseDelayMs: 200,
      });
      try {
        await client.me();
      } catch (error) {
        if (error instanceof ProlificError && (error.status === 401 || error.status === 403)) {
          deps.log.info({ service: 'prolific', status: error.status }, 'recruiting token refused by the service');
          throw new AppError('validation_failed', {
            message: 'oauth.prolificRejected',
            fields: { token: 'oauth.prolificRejected' },
          });
        }
        throw tokenUnreachable(deps, 'prolific', 'Prolific', error);
      }
    },
    stored: (input) => ({ secret: String(input.token), hint: String(input.token).slice(-4) }),
    same: (input, existing) => existing.secret === input.token,
  },
};

/**
 * Prolific behind the recruiting-platform interface; a participant's end is Prolific's completion page with the code
 * of the outcome, from the first research of the session's order with a study.
 */
export const prolific: RecruitingPlatformAdapter = {
  projectPlatforms: PROJECT_PLATFORMS,
  job: studies as unknown as JobPlatform,
  async endData(deps, researchIds) {
    return Object.fromEntries(await deps.prolificStudies.codesOf(researchIds));
  },
  end({ withCode, researches, data }) {
    const codes = researches.map((r) => data[r.id] as ProlificCodes | undefined).find((c) => !!c);
    const code = codes?.[withCode.outcome]?.code;
    // No study of Emolens's (one made on Prolific by hand): the scenario's redirect, as on other panels.
    if (!code) return null;
    return { ...withCode, code: null, redirect_url: prolificCompletionUrl(code) };
  },
};
