import type { z } from 'zod';
import { createMturkHitInput, MTURK_HIT_LIMITS, mturkCost, mturkHitOutput } from './mturk-hits.ts';
import type { Platform } from './projects.ts';
import {
  createProlificStudyInput,
  PROLIFIC_ACTIONS,
  PROLIFIC_STUDY_LIMITS,
  prolificCost,
  prolificStudyOutput,
} from './prolific-studies.ts';
import { RECRUITING_PLATFORMS, type RecruitingPlatform } from './recruiting-base.ts';
import { linkMturkTokenInput, linkProlificTokenInput, linkTolokaTokenInput } from './recruiting-tokens.ts';
import { createTolokaPoolInput, TOLOKA_POOL_LIMITS, tolokaCost, tolokaPoolOutput } from './toloka-pools.ts';

/**
 * The recruiting platforms with a pool or HIT, as one table (issue 29, item 3): the server registers its routes from
 * it and the web draws one set of pages from it. Every path is under `/api/cabinet/campaigns/{id}/{platform}/`:
 * GET the state, POST the "make it" form, POST `{action}/` for each of `actions`, and the acceptance operations
 * (`decisions/`, `acceptance/`, `review/`, `decisions/confirm/`, see `assignment-decisions.ts`). Tokens are linked at
 * POST `/api/cabinet/recruiting-tokens/{platform}/` with `linkToken`. Adding a platform is one entry here with its
 * own contract file (see docs/decisions/028-recruiting-platforms.md).
 */
export const RECRUITING_PLATFORM_CONTRACTS = {
  toloka: {
    /** The name the platform goes by. */
    name: 'Toloka',
    /** The projects' platforms (`PLATFORMS`) whose respondents come from it. */
    projectPlatforms: ['toloka', 'yandex_tasks'] as readonly Platform[],
    /** The key of the state answer holding the pool or HIT. */
    job: 'pool',
    create: createTolokaPoolInput,
    output: tolokaPoolOutput,
    /** What can be done to it after it is made: POST …/{platform}/{action}/; `can[action]` says when. */
    actions: ['open', 'close'],
    limits: TOLOKA_POOL_LIMITS,
    /** What `respondents` respondents at `reward` USD each cost at most, the platform's fee included (USD). */
    cost: tolokaCost,
    linkToken: linkTolokaTokenInput,
  },
  mturk: {
    name: 'Amazon Mechanical Turk',
    projectPlatforms: ['amazon'] as readonly Platform[],
    job: 'hit',
    create: createMturkHitInput,
    output: mturkHitOutput,
    actions: ['expire'],
    limits: MTURK_HIT_LIMITS,
    cost: mturkCost,
    linkToken: linkMturkTokenInput,
  },
  prolific: {
    name: 'Prolific',
    projectPlatforms: ['prolific'] as readonly Platform[],
    job: 'study',
    create: createProlificStudyInput,
    output: prolificStudyOutput,
    actions: PROLIFIC_ACTIONS,
    limits: PROLIFIC_STUDY_LIMITS,
    cost: prolificCost,
    linkToken: linkProlificTokenInput,
  },
} as const satisfies Record<RecruitingPlatform, RecruitingPlatformContract>;

/** One platform's entry of {@link RECRUITING_PLATFORM_CONTRACTS}. */
export interface RecruitingPlatformContract {
  name: string;
  projectPlatforms: readonly Platform[];
  job: string;
  create: z.ZodType;
  output: z.ZodType;
  actions: readonly string[];
  limits: Record<string, { min: number; max: number }>;
  cost: (reward: number, respondents: number) => number;
  linkToken: z.ZodType;
}

/** The actions of a platform's pool or HIT (`open`/`close` for Toloka, `expire` for MTurk). */
export type RecruitingAction<P extends RecruitingPlatform> =
  (typeof RECRUITING_PLATFORM_CONTRACTS)[P]['actions'][number];
/** The state answer of a platform: GET /api/cabinet/campaigns/{id}/{platform}/. */
export type RecruitingStateOutput<P extends RecruitingPlatform> = z.output<
  (typeof RECRUITING_PLATFORM_CONTRACTS)[P]['output']
>;
/** The "make it" form of a platform: POST /api/cabinet/campaigns/{id}/{platform}/. */
export type RecruitingCreateInput<P extends RecruitingPlatform> = z.input<
  (typeof RECRUITING_PLATFORM_CONTRACTS)[P]['create']
>;

/** The API path of a research's pool or HIT on `platform` (relative to /api), with `action` appended when given. */
export function recruitingPath(platform: RecruitingPlatform, researchId: string, action?: string): string {
  return `/cabinet/campaigns/${encodeURIComponent(researchId)}/${platform}/${action ? `${action}/` : ''}`;
}

/** The recruiting platform a project's respondents come from (`projectPlatforms`), if it has one here. */
export function recruitingPlatformOf(platform: Platform): RecruitingPlatform | undefined {
  return RECRUITING_PLATFORMS.find((p) => RECRUITING_PLATFORM_CONTRACTS[p].projectPlatforms.includes(platform));
}
