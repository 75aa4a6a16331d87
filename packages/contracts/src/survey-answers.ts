/**
 * A respondent's answers to a questionnaire (issue 12): what a respondent sends, which questions the display logic
 * shows, the required and range checks, the screener's verdict and the quota shares' capacity.
 */
import { z } from 'zod';
import { type Message, msg } from './messages.ts';
import { type Condition, idSchema, OTHER_OPTION, type Question, type Sex, SURVEY_LIMITS } from './surveys.ts';

/**
 * One answer, by question type: choices (single: one id; multiple: several; "other" as `other` plus its text), a
 * number (scale, number), a text, or a matrix's choice per row. Information blocks take none.
 */
export const answerSchema = z.union([
  z.strictObject({
    choices: z.array(idSchema).max(SURVEY_LIMITS.options + 1),
    other_text: z
      .string()
      .max(SURVEY_LIMITS.answerChars, msg('validation.maxChars', { max: SURVEY_LIMITS.answerChars }))
      .optional(),
  }),
  z.strictObject({ number: z.number(msg('validation.number')).finite() }),
  z.strictObject({
    text: z.string().max(SURVEY_LIMITS.answerChars, msg('validation.maxChars', { max: SURVEY_LIMITS.answerChars })),
  }),
  z.strictObject({ rows: z.record(idSchema, idSchema) }),
]);
export type Answer = z.infer<typeof answerSchema>;
export type Answers = Record<string, Answer>;

/** PUT /r/sessions/{id}/surveys/{slot}/answers — the answers so far (saved as the respondent goes), `final` on submit. */
export const respondentAnswersInput = z.strictObject({
  answers: z
    .record(idSchema, answerSchema)
    .refine(
      (a) => Object.keys(a).length <= SURVEY_LIMITS.questions,
      msg('validation.maxItems', { max: SURVEY_LIMITS.questions }),
    ),
  final: z.boolean().default(false),
});
export type RespondentAnswersInput = z.infer<typeof respondentAnswersInput>;

/** Whether one condition holds for the answers given so far. */
function holds(c: Condition, answers: Answers): boolean {
  const a = answers[c.question];
  if (c.operator === 'answered') return a !== undefined && isAnswered(a);
  if (c.operator === 'selected' || c.operator === 'not_selected') {
    let selected = false;
    if (a && 'choices' in a) selected = a.choices.includes(String(c.value));
    if (a && 'rows' in a && typeof c.value === 'string') {
      const [row, option] = c.value.split(':');
      selected = row !== undefined && a.rows[row] === option;
    }
    return c.operator === 'selected' ? selected : !selected;
  }
  if (!a || !('number' in a) || typeof c.value !== 'number') return false;
  if (c.operator === 'equals') return a.number === c.value;
  if (c.operator === 'greater') return a.number > c.value;
  return a.number < c.value;
}

/**
 * The questions shown for these answers, in order. A question is shown when it has no conditions, or when its
 * conditions hold, all of them (`and`) or any (`or`); a condition on a hidden question counts as not answered,
 * so hiding cascades.
 */
export function visibleQuestions(questions: readonly Question[], answers: Answers): Question[] {
  const shown: Question[] = [];
  const visibleAnswers: Answers = {};
  for (const q of questions) {
    const results = q.conditions.map((c) => holds(c, visibleAnswers));
    const visible =
      results.length === 0 || (q.logic_operator === 'or' ? results.some(Boolean) : results.every(Boolean));
    if (!visible) continue;
    shown.push(q);
    const a = answers[q.id];
    if (a !== undefined) visibleAnswers[q.id] = a;
  }
  return shown;
}

/** The spec's required check: a non-empty trimmed string, or a non-empty array (a number counts when given). */
export function isAnswered(answer: Answer): boolean {
  if ('choices' in answer) return answer.choices.length > 0;
  if ('text' in answer) return answer.text.trim().length > 0;
  if ('rows' in answer) return Object.keys(answer.rows).length > 0;
  return Number.isFinite(answer.number);
}

/** One problem with the answers: the question and the message. */
export interface AnswerProblem {
  question: string;
  message: Message;
}

/**
 * The answers checked against the questionnaire: every answered question exists and is shown, has the answer
 * type of its question, picks existing options (one for single choice, one per existing row of a matrix), stays in
 * range (scale: a whole step), and gives the "other" text when "other" is chosen. With `complete`, every
 * required shown question (matrix: every row) must be answered.
 */
export function checkAnswers(
  questions: readonly Question[],
  answers: Answers,
  options: { complete: boolean },
): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  const byId = new Map(questions.map((q) => [q.id, q]));
  const shown = new Set(visibleQuestions(questions, answers).map((q) => q.id));
  for (const [id, a] of Object.entries(answers)) {
    const q = byId.get(id);
    if (!q) {
      problems.push({ question: id, message: msg('survey.unknownQuestion') });
      continue;
    }
    if (!shown.has(id)) {
      problems.push({ question: id, message: msg('survey.hiddenQuestion') });
      continue;
    }
    const wrong = answerProblem(q, a);
    if (wrong) problems.push({ question: id, message: wrong });
  }
  if (options.complete) {
    for (const q of questions) {
      if (!q.required || q.type === 'info' || !shown.has(q.id)) continue;
      const a = answers[q.id];
      const missing = !a || !isAnswered(a) || (q.type === 'matrix' && 'rows' in a && q.rows.some((r) => !a.rows[r.id]));
      if (missing && !problems.some((p) => p.question === q.id)) {
        problems.push({ question: q.id, message: msg('validation.required') });
      }
    }
  }
  return problems;
}

function answerProblem(q: Question, a: Answer): Message | null {
  switch (q.type) {
    case 'info':
      return msg('validation.invalid');
    case 'single':
    case 'multiple': {
      if (!('choices' in a)) return msg('validation.invalid');
      const ids = new Set(q.options.map((o) => o.id));
      if (q.other) ids.add(OTHER_OPTION);
      if (a.choices.some((c) => !ids.has(c)) || new Set(a.choices).size !== a.choices.length) {
        return msg('validation.choice');
      }
      if (q.type === 'single' && a.choices.length > 1) return msg('validation.choice');
      if (a.choices.includes(OTHER_OPTION) && !a.other_text?.trim()) return msg('survey.otherText');
      if (!a.choices.includes(OTHER_OPTION) && a.other_text !== undefined && a.other_text !== '') {
        return msg('validation.invalid');
      }
      return null;
    }
    case 'scale':
    case 'number': {
      if (!('number' in a)) return msg('validation.invalid');
      if (q.type === 'scale' && !Number.isInteger(a.number)) return msg('validation.wholeNumber');
      const min = q.min ?? Number.NEGATIVE_INFINITY;
      const max = q.max ?? Number.POSITIVE_INFINITY;
      if (a.number < min || a.number > max) return msg('validation.between', { first: min, second: max });
      return null;
    }
    case 'text':
      return 'text' in a ? null : msg('validation.invalid');
    case 'matrix': {
      if (!('rows' in a)) return msg('validation.invalid');
      const rows = new Set(q.rows.map((r) => r.id));
      const columns = new Set(q.options.map((o) => o.id));
      const bad = Object.entries(a.rows).some(([row, option]) => !rows.has(row) || !columns.has(option));
      return bad ? msg('validation.choice') : null;
    }
  }
}

/**
 * A screener's verdict on complete answers: `dropout` when a shown question's chosen option says so; otherwise
 * `pass`, with the quota options chosen (question, option, share %), which the server counts atomically against
 * the sample before letting the respondent on.
 */
export function screenerOutcome(
  questions: readonly Question[],
  answers: Answers,
): { outcome: 'pass' | 'dropout'; quotas: { question: string; option: string; share: number }[] } {
  const quotas: { question: string; option: string; share: number }[] = [];
  for (const q of visibleQuestions(questions, answers)) {
    const a = answers[q.id];
    if (!a || !('choices' in a)) continue;
    for (const id of a.choices) {
      const option = q.options.find((o) => o.id === id);
      if (option?.rule === 'dropout') return { outcome: 'dropout', quotas: [] };
      if (option?.rule === 'quota' && option.share !== null)
        quotas.push({ question: q.id, option: id, share: option.share });
    }
  }
  return { outcome: 'pass', quotas };
}

/** How many respondents of a sample an option's quota share allows: ⌈share% × sample⌉ (a share never rounds to 0). */
export function quotaCapacity(share: number, sample: number): number {
  return Math.ceil((share * sample) / 100 - 1e-9);
}

/**
 * The respondent's sex and age as the answers give them, for the sex and age filters: a key for each profile
 * question the questionnaire has (null when unanswered; an age outside 0–120 or not a whole number of years is
 * not taken), none for what it does not ask, so another questionnaire's answer stays.
 */
export function respondentProfile(
  questions: readonly Question[],
  answers: Answers,
): { sex?: Sex | null; age?: number | null } {
  const profile: { sex?: Sex | null; age?: number | null } = {};
  for (const q of questions) {
    const a = answers[q.id];
    if (q.profile === 'sex') {
      profile.sex = a && 'choices' in a ? (q.options.find((o) => o.id === a.choices[0])?.sex ?? null) : null;
    }
    if (q.profile === 'age') {
      const ok = a && 'number' in a && Number.isInteger(a.number) && a.number >= 0 && a.number <= 120;
      profile.age = ok ? a.number : null;
    }
  }
  return profile;
}
