import {
  CATEGORY_KINDS,
  type CategoryKind,
  isMessageKey,
  type MessageKey,
  parseMessage,
  type SelfServiceTest,
  type UpdateSelfServiceInput,
  updateSelfServiceInput,
} from '@emolens/contracts';
import type { FormErrors } from '@mantine/form';
import { translateMessage } from '../../i18n/messages.ts';

/** What the draft's inputs hold: an empty number input is ''. */
export interface DraftValues {
  title: string;
  respondents: number | string;
  sex: 'off' | 'man' | 'woman';
  age_min: number | string;
  age_max: number | string;
  regions: string[];
  categories: Record<CategoryKind, string>;
}

/** The inputs of a test as the server has it (`required` is the number of respondents asked for). */
export function draftValues(test: SelfServiceTest): DraftValues {
  return {
    title: test.title,
    respondents: test.required,
    sex: test.audience.sex,
    age_min: test.audience.age_min ?? '',
    age_max: test.audience.age_max ?? '',
    regions: [...test.audience.regions],
    categories: Object.fromEntries(CATEGORY_KINDS.map((k) => [k, test.categories[k] ?? ''])) as Record<
      CategoryKind,
      string
    >,
  };
}

export function sameValues(a: DraftValues, b: DraftValues): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const numberOrNull = (value: number | string) => (value === '' ? null : Number(value));

type DraftPatch = Omit<UpdateSelfServiceInput, 'updated_at'>;

/** The edits of `values` against the version `base` they were made on: only what changed. */
export function draftPatch(values: DraftValues, base: SelfServiceTest): DraftPatch {
  const before = draftValues(base);
  const patch: DraftPatch = {};
  if (values.title !== before.title) patch.title = values.title;
  if (values.respondents !== before.respondents) {
    // An emptied input is sent as it is, for the schema's "enter a number".
    patch.respondents = numberOrNull(values.respondents) as number;
  }
  if (
    values.sex !== before.sex ||
    values.age_min !== before.age_min ||
    values.age_max !== before.age_max ||
    values.regions.join() !== before.regions.join()
  ) {
    patch.audience = {
      sex: values.sex,
      age_min: numberOrNull(values.age_min),
      age_max: numberOrNull(values.age_max),
      regions: values.regions.map((r) => r.trim().toUpperCase()),
    };
  }
  const categories = CATEGORY_KINDS.filter((k) => values.categories[k] !== before.categories[k]);
  if (categories.length > 0) patch.categories = Object.fromEntries(categories.map((k) => [k, values.categories[k]]));
  return patch;
}

/** The input's path of a field of the API ('audience.regions.3' → 'regions'). */
export function formPath(apiPath: string): string {
  const parts = apiPath.split('.');
  if (parts[0] === 'audience' && parts[1]) return parts[1];
  if (parts[0] === 'categories' && parts[1]) return `categories.${parts[1]}`;
  return parts[0] ?? apiPath;
}

/** Field messages (already translated) on the inputs' paths; the first of each input wins. */
export function formErrors(fields: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    const key = formPath(path);
    if (!(key in errors)) errors[key] = message;
  }
  return errors;
}

/** A valid `updated_at` for checking the inputs alone with the contract's schema. */
const ANY_VERSION = '2000-01-01T00:00:00.000Z';

/** Every input in the contract's shape. */
function fullInput(values: DraftValues) {
  return {
    title: values.title,
    respondents: numberOrNull(values.respondents),
    audience: {
      sex: values.sex,
      age_min: numberOrNull(values.age_min),
      age_max: numberOrNull(values.age_max),
      regions: values.regions.map((r) => r.trim()),
    },
    categories: values.categories,
    updated_at: ANY_VERSION,
  };
}

/** The contract's checks of the inputs, as messages under them. */
export function validateDraft(values: DraftValues): FormErrors {
  const result = updateSelfServiceInput.safeParse(fullInput(values));
  if (result.success) return {};
  return formErrors(
    Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), translateMessage(issue.message)])),
  );
}

/** The catalogue key of a problem the server names (a key, or a reference written by `msg()`). */
export function problemKey(problem: string): MessageKey | undefined {
  if (isMessageKey(problem)) return problem;
  return parseMessage(problem)?.key;
}

/**
 * A problem in the interface language. The balance's message takes its numbers from the test when the server gave
 * the key alone.
 */
export function problemText(problem: string, test?: Pick<SelfServiceTest, 'sessions' | 'balance'>): string {
  if (problem === 'selfservice.balanceLow' && test) {
    return translateMessage({
      key: 'selfservice.balanceLow',
      params: { needed: test.sessions ?? '—', balance: test.balance ?? '—' },
    });
  }
  if (isMessageKey(problem)) return translateMessage({ key: problem });
  return translateMessage(problem);
}

export const STEPS = ['video', 'categories', 'audience', 'survey', 'price'] as const;
export type Step = (typeof STEPS)[number];

/** The problems each step of the draft answers for. */
const STEP_PROBLEMS: Record<Step, MessageKey[]> = {
  video: ['selfservice.videoMissing', 'selfservice.videoNotReady'],
  categories: ['selfservice.subtypeMissing'],
  audience: ['selfservice.minRespondents'],
  survey: ['selfservice.surveyIncomplete'],
  price: ['selfservice.balanceLow', 'selfservice.balanceShort'],
};

/** The step of an input, for opening the step that holds an error. */
export function stepOfField(path: string): Step {
  if (path.startsWith('categories')) return 'categories';
  if (['respondents', 'sex', 'age_min', 'age_max', 'regions'].includes(path)) return 'audience';
  return 'video';
}

/** Whether a step still has something to do, by the server's `problems` (and the survey's). */
export function stepNeedsWork(step: Step, test: SelfServiceTest): boolean {
  if (step === 'survey' && test.survey_problems.length > 0) return true;
  return test.problems.some((p) => {
    const key = problemKey(p);
    return key !== undefined && STEP_PROBLEMS[step].includes(key);
  });
}
