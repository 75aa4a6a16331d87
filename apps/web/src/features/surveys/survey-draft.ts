import { arrayMove } from '@dnd-kit/sortable';
import {
  type Condition,
  conditionFits,
  conditionOperators,
  LANGUAGES,
  type Language,
  type LocalizedText,
  newQuestionFields,
  type OptionRule,
  profileFits,
  type Question,
  type QuestionProfile,
  type QuestionType,
  questionTexts,
  type Sex,
  type Survey,
  type SurveyOption,
  type SurveyType,
  scaleFits,
  surveyBodySchema,
  surveyProblems,
} from '@emolens/contracts';

/** What the editor holds of a questionnaire: what a save sends (with the `updated_at` it was read at). */
export interface SurveyDraft {
  title: string;
  enabled: boolean;
  questions: Question[];
}

export function draftOf(survey: Pick<Survey, 'title' | 'enabled' | 'questions'>): SurveyDraft {
  return { title: survey.title, enabled: survey.enabled, questions: survey.questions };
}

/** The two lists of a question that hold texts with ids: choices (a matrix's columns) and a matrix's rows. */
export type ItemList = 'options' | 'rows';
/** The localized texts of a question itself. */
export type QuestionTextField = 'text' | 'min_label' | 'max_label';

export type SurveyAction =
  | { type: 'reset'; draft: SurveyDraft }
  | { type: 'setTitle'; title: string }
  | { type: 'setEnabled'; enabled: boolean }
  | { type: 'addQuestion'; questionType: QuestionType }
  | { type: 'removeQuestion'; id: string }
  | { type: 'duplicateQuestion'; id: string }
  | { type: 'moveQuestion'; from: number; to: number }
  | { type: 'setQuestionType'; id: string; questionType: QuestionType }
  | { type: 'setQuestionText'; id: string; field: QuestionTextField; language: Language; value: string }
  | {
      type: 'setQuestionFlags';
      id: string;
      flags: Partial<Pick<Question, 'required' | 'random_order' | 'other' | 'min' | 'max' | 'logic_operator'>>;
    }
  | { type: 'addItem'; id: string; list: ItemList }
  | { type: 'removeItem'; id: string; list: ItemList; itemId: string }
  | { type: 'moveItem'; id: string; list: ItemList; from: number; to: number }
  | { type: 'setItemText'; id: string; list: ItemList; itemId: string; language: Language; value: string }
  | { type: 'setOptionRule'; id: string; optionId: string; rule: OptionRule }
  | { type: 'setOptionShare'; id: string; optionId: string; share: number | null }
  | { type: 'setQuestionProfile'; id: string; profile: QuestionProfile | null }
  | { type: 'setOptionSex'; id: string; optionId: string; sex: Sex | null }
  | { type: 'addCondition'; id: string }
  | { type: 'setCondition'; id: string; index: number; condition: Condition }
  | { type: 'removeCondition'; id: string; index: number };

export const emptyText = (): LocalizedText => ({ ru: '', en: '', id: '', ko: '' });

const CHOICE: readonly QuestionType[] = ['single', 'multiple'];
const WITH_OPTIONS: readonly QuestionType[] = ['single', 'multiple', 'matrix'];

export const isChoice = (type: QuestionType) => CHOICE.includes(type);

export const hasOptions = (type: QuestionType) => WITH_OPTIONS.includes(type);

/** The operators a condition may use on a question of this type (information blocks take none). */
/** The earlier questions a condition of the question at `index` may refer to. */
export function conditionTargets(questions: readonly Question[], index: number): Question[] {
  return questions.slice(0, index).filter((q) => q.type !== 'info');
}

/** A new condition of the question at `index`: on the nearest earlier question that takes one, or none. */
function newCondition(questions: readonly Question[], index: number): Condition | null {
  const target = conditionTargets(questions, index).at(-1);
  if (!target) return null;
  return conditionOn(target);
}

/** A condition on `target` with the first operator its type takes and no value yet. */
export function conditionOn(target: Question): Condition {
  const operator = conditionOperators(target.type)[0] ?? 'answered';
  return { question: target.id, operator, value: null };
}

/**
 * Whether a condition still fits the questionnaire after a change elsewhere: its question exists, is earlier and
 * takes conditions, its operator suits that question's type, and the option (row) it names still exists. A
 * value not chosen yet (null) fits: the editor shows it as a problem until it is chosen.
 */
export function conditionAlive(c: Condition, earlier: ReadonlyMap<string, Question>): boolean {
  const target = earlier.get(c.question);
  if (!target) return false;
  return c.value === null ? conditionOperators(target.type).includes(c.operator) : conditionFits(c, target);
}

/**
 * Drops the conditions a change has left dangling: on a question that was deleted or moved below, on an option
 * or row that is gone, or with an operator the question's new type does not take.
 */
export function cleanConditions(questions: readonly Question[]): Question[] {
  const earlier = new Map<string, Question>();
  return questions.map((q) => {
    const kept = q.conditions.filter((c) => conditionAlive(c, earlier));
    earlier.set(q.id, q);
    return kept.length === q.conditions.length ? q : { ...q, conditions: kept };
  });
}

export function countConditions(questions: readonly Question[]): number {
  return questions.reduce((n, q) => n + q.conditions.length, 0);
}

/** A random id for the contracts' id pattern ([A-Za-z0-9_-], short). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('');
}

function uniqueId(prefix: string, taken: Iterable<string>, newId: () => string): string {
  const used = new Set(taken);
  for (;;) {
    const id = `${prefix}${newId()}`;
    if (!used.has(id)) return id;
  }
}

type Row = Question['rows'][number];

function newOption(taken: Iterable<string>, newId: () => string): SurveyOption {
  return { id: uniqueId('o', taken, newId), text: emptyText(), rule: 'pass', share: null, sex: null };
}

function newRow(taken: Iterable<string>, newId: () => string): Row {
  return { id: uniqueId('r', taken, newId), text: emptyText() };
}

/** A new question of a type, with what the type needs to be usable (two choices, a 1–5 scale, …). */
export function newQuestion(type: QuestionType, taken: Iterable<string>, newId: () => string): Question {
  const base: Question = {
    id: uniqueId('q', taken, newId),
    type,
    text: emptyText(),
    required: type !== 'info',
    ...newQuestionFields(),
  };
  return withType(base, type, newId);
}

/** A question turned into another type: it keeps what still applies and gets what the new type needs. */
function withType(q: Question, type: QuestionType, newId: () => string): Question {
  const next: Question = { ...q, type };
  if (!hasOptions(type)) next.options = [];
  else {
    const options = [...q.options];
    while (options.length < 2) {
      options.push(
        newOption(
          options.map((o) => o.id),
          newId,
        ),
      );
    }
    // Screener rules belong to single and multiple choice only.
    next.options = isChoice(type) ? options : options.map((o) => ({ ...o, rule: 'pass', share: null }));
  }
  if (type !== 'matrix') next.rows = [];
  else if (q.rows.length === 0) next.rows = [newRow([], newId)];
  // Sex is told by a single choice, age by a number question (`profileFits`).
  if (q.profile && !profileFits(q.profile, type)) {
    next.profile = null;
    next.options = next.options.map((o) => ({ ...o, sex: null }));
  }
  if (!isChoice(type)) next.other = false;
  if (!hasOptions(type)) next.random_order = false;
  if (type === 'info') next.required = false;
  if (type === 'scale') {
    const fits = scaleFits(q);
    next.min = fits ? q.min : 1;
    next.max = fits ? q.max : 5;
    next.min_label = q.min_label ?? emptyText();
    next.max_label = q.max_label ?? emptyText();
  } else {
    delete next.min_label;
    delete next.max_label;
    if (type !== 'number') {
      next.min = null;
      next.max = null;
    }
  }
  return next;
}

function duplicate(q: Question, taken: Iterable<string>, newId: () => string): Question {
  const id = uniqueId('q', taken, newId);
  const options: SurveyOption[] = [];
  for (const o of q.options) {
    options.push({
      ...o,
      id: uniqueId(
        'o',
        options.map((x) => x.id),
        newId,
      ),
      text: { ...o.text },
    });
  }
  const rows: Row[] = [];
  for (const r of q.rows) {
    rows.push({
      id: uniqueId(
        'r',
        rows.map((x) => x.id),
        newId,
      ),
      text: { ...r.text },
    });
  }
  return {
    ...q,
    id,
    text: { ...q.text },
    options,
    rows,
    conditions: q.conditions.map((c) => ({ ...c })),
    ...(q.min_label ? { min_label: { ...q.min_label } } : {}),
    ...(q.max_label ? { max_label: { ...q.max_label } } : {}),
  };
}

const setLanguage = (text: LocalizedText | undefined, language: Language, value: string): LocalizedText => ({
  ...(text ?? emptyText()),
  [language]: value,
});

/**
 * The editor's reducer over a draft. Ids of new questions, options and rows come from `newId` (random in the
 * app, counted in tests), unique where the contracts want them unique. Every change that can leave display
 * logic dangling (a question deleted, moved or retyped, an option or row removed, "other" turned off) drops the
 * conditions it broke.
 */
export function createSurveyReducer(newId: () => string = randomId) {
  const onQuestion = (draft: SurveyDraft, id: string, change: (q: Question) => Question): SurveyDraft => ({
    ...draft,
    questions: draft.questions.map((q) => (q.id === id ? change(q) : q)),
  });

  const step = (draft: SurveyDraft, action: SurveyAction): SurveyDraft => {
    switch (action.type) {
      case 'reset':
        return action.draft;
      case 'setTitle':
        return { ...draft, title: action.title };
      case 'setEnabled':
        return { ...draft, enabled: action.enabled };
      case 'addQuestion':
        return {
          ...draft,
          questions: [
            ...draft.questions,
            newQuestion(
              action.questionType,
              draft.questions.map((q) => q.id),
              newId,
            ),
          ],
        };
      case 'removeQuestion':
        return { ...draft, questions: draft.questions.filter((q) => q.id !== action.id) };
      case 'duplicateQuestion': {
        const index = draft.questions.findIndex((q) => q.id === action.id);
        const original = draft.questions[index];
        if (!original) return draft;
        const copy = duplicate(
          original,
          draft.questions.map((q) => q.id),
          newId,
        );
        const questions = [...draft.questions];
        questions.splice(index + 1, 0, copy);
        return { ...draft, questions };
      }
      case 'moveQuestion': {
        const { from, to } = action;
        const count = draft.questions.length;
        if (from === to || from < 0 || to < 0 || from >= count || to >= count) return draft;
        return { ...draft, questions: arrayMove(draft.questions, from, to) };
      }
      case 'setQuestionType':
        return onQuestion(draft, action.id, (q) =>
          q.type === action.questionType ? q : withType(q, action.questionType, newId),
        );
      case 'setQuestionText':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          [action.field]: setLanguage(q[action.field], action.language, action.value),
        }));
      case 'setQuestionFlags':
        return onQuestion(draft, action.id, (q) => ({ ...q, ...action.flags }));
      case 'addItem':
        return onQuestion(draft, action.id, (q) => {
          const taken = q[action.list].map((o) => o.id);
          return action.list === 'rows'
            ? { ...q, rows: [...q.rows, newRow(taken, newId)] }
            : { ...q, options: [...q.options, newOption(taken, newId)] };
        });
      case 'removeItem':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          [action.list]: q[action.list].filter((o) => o.id !== action.itemId),
        }));
      case 'moveItem':
        return onQuestion(draft, action.id, (q) => {
          const items = q[action.list];
          const { from, to } = action;
          if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return q;
          return { ...q, [action.list]: arrayMove([...items], from, to) };
        });
      case 'setItemText':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          [action.list]: q[action.list].map((o) =>
            o.id === action.itemId ? { ...o, text: setLanguage(o.text, action.language, action.value) } : o,
          ),
        }));
      case 'setOptionRule':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          options: q.options.map((o) =>
            o.id === action.optionId ? { ...o, rule: action.rule, share: action.rule === 'quota' ? o.share : null } : o,
          ),
        }));
      case 'setOptionShare':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          options: q.options.map((o) => (o.id === action.optionId ? { ...o, share: action.share } : o)),
        }));
      case 'setQuestionProfile':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          profile: action.profile,
          options: action.profile === 'sex' ? q.options : q.options.map((o) => ({ ...o, sex: null })),
        }));
      case 'setOptionSex':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          options: q.options.map((o) => (o.id === action.optionId ? { ...o, sex: action.sex } : o)),
        }));
      case 'addCondition': {
        const index = draft.questions.findIndex((q) => q.id === action.id);
        const condition = newCondition(draft.questions, index);
        if (!condition) return draft;
        return onQuestion(draft, action.id, (q) => ({ ...q, conditions: [...q.conditions, condition] }));
      }
      case 'setCondition':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          conditions: q.conditions.map((c, i) => (i === action.index ? action.condition : c)),
        }));
      case 'removeCondition':
        return onQuestion(draft, action.id, (q) => ({
          ...q,
          conditions: q.conditions.filter((_, i) => i !== action.index),
        }));
    }
  };

  return (draft: SurveyDraft, action: SurveyAction): SurveyDraft => {
    const next = step(draft, action);
    if (next === draft || action.type === 'reset') return next;
    return { ...next, questions: cleanConditions(next.questions) };
  };
}

export const surveyReducer = createSurveyReducer();

/**
 * How many display-logic conditions an action drops on its own (moving a question below the one that refers to
 * it, deleting a question or option): what the editor tells the user. A condition removed by hand does not count.
 */
export function droppedConditions(draft: SurveyDraft, action: SurveyAction, next: SurveyDraft): number {
  if (action.type === 'removeCondition' || action.type === 'reset') return 0;
  return Math.max(0, countConditions(draft.questions) - countConditions(next.questions));
}

/**
 * The problems of a draft by path (`questions.2.options`): what the contracts refuse (a missing title, a text
 * too long) and what `surveyProblems` finds (too few options, a quota sum below 100%, logic on a later
 * question). The first message of each path.
 */
export function draftProblems(type: SurveyType, draft: SurveyDraft): Map<string, string> {
  const out = new Map<string, string>();
  const add = (path: readonly PropertyKey[], message: string) => {
    const key = path.map(String).join('.');
    if (!out.has(key)) out.set(key, message);
  };
  const parsed = surveyBodySchema.safeParse({ type, ...draft });
  if (!parsed.success) for (const issue of parsed.error.issues) add(issue.path, issue.message);
  for (const problem of surveyProblems({ type, questions: draft.questions })) add(problem.path, problem.message);
  return out;
}

/** How many texts each language lacks (the question, its options, rows and scale labels). */
export function missingCounts(draft: SurveyDraft): Record<Language, number> {
  const counts = Object.fromEntries(LANGUAGES.map((l) => [l, 0])) as Record<Language, number>;
  const check = (text: LocalizedText | undefined) => {
    if (!text) return;
    for (const l of LANGUAGES) if (!text[l].trim()) counts[l] += 1;
  };
  for (const q of draft.questions) for (const text of questionTexts(q)) check(text);
  return counts;
}

/** The draft in the shape of `updateSurveyInput`. */
export function updateBody(draft: SurveyDraft, updatedAt: string) {
  return { title: draft.title, enabled: draft.enabled, questions: draft.questions, updated_at: updatedAt };
}
