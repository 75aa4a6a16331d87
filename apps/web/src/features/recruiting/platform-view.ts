import type { RecruitingEnvironment, RecruitingPlatform } from '@emolens/contracts';
import type { MantineColor, StyleProp } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

/**
 * How the cabinet shows one recruiting platform's pool or HIT (issue 29, item 3): one page, one form and one set of
 * hooks draw every platform from its view; the contract (`RECRUITING_PLATFORM_CONTRACTS`) gives the schemas, the
 * actions, the limits and the cost, the view what is the platform's own on screen. Adding a platform is one view
 * file in `views/` and its line in `views/index.ts`.
 */

/** What every platform's state answer carries besides its pool or HIT. */
export interface PlatformState {
  balance: number | null;
  token: { description: string; environment: RecruitingEnvironment } | null;
  quota_link: string | null;
  quota: number | null;
  problems: string[];
  offline: boolean;
  can: { create: boolean } & Record<string, boolean>;
}

/** What every platform's pool or HIT carries (`recruitingJobFields`) that the page shows. */
export interface RecruitingJob {
  /** The platform's status, as it last said; its text is `{texts}.statuses.{status}`. */
  status: string;
  reward: number;
  cost: number;
}

/** The formatters a view's texts use, in the interface language. */
export interface Format {
  t: TFunction<'integrations'>;
  usd: Intl.NumberFormat;
  when: Intl.DateTimeFormat;
}

/** A labelled fact of the summary card. */
export type Fact = [string, ReactNode];

/** A value of the "make it" form as the inputs hold it (a number input holds '' when empty). */
export type FieldValue = string | number | string[];

interface FieldBase {
  /** The field of the contract's "make it" input; `a.b` is field `b` of its object `a`. */
  name: string;
  /** Keys of `integrations`. */
  label: string;
  hint?: string;
}

/** One input of the "make it" form. */
export type Field =
  | (FieldBase & { kind: 'text' | 'textarea'; required?: boolean })
  | (FieldBase & {
      kind: 'number';
      /** The contract's limits entry that bounds it. */
      limits: string;
      /** Empty sends null (the contract's default) instead of 0. */
      nullable?: boolean;
      prefix?: string;
      decimals?: number;
      fixedDecimals?: boolean;
      step?: number;
    })
  | (FieldBase & { kind: 'choice' | 'select'; options: { value: string; label: string }[] })
  /** Several of the options (a list of their values). */
  | (FieldBase & { kind: 'checks'; options: { value: string; label: string }[] })
  /** On ('on') or off (''); sent as a boolean. */
  | (FieldBase & { kind: 'switch' })
  /** Two-letter country codes, upper-cased as typed. */
  | (FieldBase & { kind: 'countries'; max: number });

/** A line of the form: one field across, or a grid of them. */
export type FormRow = Field | { grid: Field[]; cols: StyleProp<number> };

/** A button that acts on the made pool or HIT (POST …/{action}/), confirmed first. */
export interface JobAction {
  kind: string;
  color: MantineColor;
  variant?: 'light';
  icon: ReactNode;
}

/**
 * A platform's view. `texts` names its texts in `integrations` (`pool` for Toloka, `hit` for MTurk, `study` for
 * Prolific): the title,
 * the statuses, the actions' labels and their confirmations are `{texts}.…`; the facts both share are under `pool.`.
 * The test ids are `{texts}-…` (pool-summary, hit-expire…), the page's `{platform}-{texts}`.
 */
export interface PlatformView<Out extends PlatformState = PlatformState, Job extends RecruitingJob = RecruitingJob> {
  platform: RecruitingPlatform;
  texts: 'pool' | 'hit' | 'study';
  /** The cabinet page of the platform's tokens, offered when a token is what is missing. */
  tokensPath: string;
  /** The pool or HIT in the state answer; null: not made yet. */
  job(data: Out): Job | null;
  statusColor(job: Job): MantineColor;
  /** A dimmed line beside the status (why it stopped, until when it is offered); null: none. */
  statusNote(job: Job, f: Format): string | null;
  /** The job's facts between its reward and its cost: how many respondents, and the like. */
  sizeFacts(job: Job, f: Format): Fact[];
  /** What the cost covers, after the amount. */
  costHint(f: Format): string;
  /** The job's facts after its cost: the platform's ids and links. */
  idFacts(job: Job, f: Format): Fact[];
  actions: JobAction[];
  form: {
    rows: FormRow[];
    initial(context: { title: string; quota: number | null; t: TFunction<'integrations'> }): Record<string, FieldValue>;
    /**
     * The form shows what the job costs as it is filled in and confirms the cost before making it; the field that
     * says how many respondents, and the platform's fee in percent for that many.
     */
    estimate?: { respondents: string; feePercent(respondents: number): number };
  };
}
