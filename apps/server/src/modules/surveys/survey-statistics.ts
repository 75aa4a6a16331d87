import {
  type Answer,
  type Answers,
  isAnswered,
  OPEN_ANSWERS_SHOWN,
  OTHER_OPTION,
  type Question,
  type QuestionStatistics,
  visibleQuestions,
} from '@emolens/contracts';

/** One respondent's answers to the questionnaire, as the statistics read them (latest change first). */
export interface ResponseRow {
  session_id: string;
  answers: Answers;
  /** The final answers were sent. */
  done: boolean;
}

/**
 * Per question, over the respondents given (issue 12 item 5):
 * - `shown`: respondents the question was shown to: its display logic held for their answers, and they either
 *   sent their final answers or answered it (a respondent who stopped earlier never reached it);
 * - `answered`: of them, who answered (the spec's required check: a non-empty text or choice);
 * - shares are of `answered` (multiple choice: they add up to more than 1);
 * - scale and number: mean, median, sample standard deviation, range and the distribution;
 * - open texts, latest first; matrix: per row the count per column.
 */
export function questionStatistics(questions: readonly Question[], rows: readonly ResponseRow[]): QuestionStatistics[] {
  const visible = rows.map((r) => new Set(visibleQuestions(questions, r.answers).map((q) => q.id)));
  return questions
    .filter((q) => q.type !== 'info')
    .map((q) => {
      const given: { session_id: string; answer: Answer }[] = [];
      let shown = 0;
      rows.forEach((r, i) => {
        if (!visible[i]?.has(q.id)) return;
        const a = r.answers[q.id];
        const answered = a !== undefined && isAnswered(a);
        if (answered || r.done) shown += 1;
        if (answered) given.push({ session_id: r.session_id, answer: a });
      });
      return { ...statisticsOf(q, given), id: q.id, type: q.type, shown, answered: given.length };
    });
}

type Given = { session_id: string; answer: Answer }[];
type Part = Omit<QuestionStatistics, 'id' | 'type' | 'shown' | 'answered'>;

const EMPTY: Part = { options: [], other: null, numbers: null, texts: [], rows: [] };

function statisticsOf(q: Question, given: Given): Part {
  const n = given.length;
  const share = (count: number) => (n ? count / n : 0);
  switch (q.type) {
    case 'single':
    case 'multiple': {
      const counts = new Map<string, number>();
      const otherTexts: string[] = [];
      for (const { answer } of given) {
        if (!('choices' in answer)) continue;
        for (const id of answer.choices) counts.set(id, (counts.get(id) ?? 0) + 1);
        if (answer.choices.includes(OTHER_OPTION) && answer.other_text?.trim())
          otherTexts.push(answer.other_text.trim());
      }
      const other = counts.get(OTHER_OPTION) ?? 0;
      return {
        ...EMPTY,
        options: q.options.map((o) => ({
          id: o.id,
          count: counts.get(o.id) ?? 0,
          share: share(counts.get(o.id) ?? 0),
        })),
        other: q.other ? { count: other, share: share(other), texts: otherTexts.slice(0, OPEN_ANSWERS_SHOWN) } : null,
      };
    }
    case 'scale':
    case 'number': {
      const values = given.flatMap(({ answer }) => ('number' in answer ? [answer.number] : []));
      return { ...EMPTY, numbers: numberSummary(q, values) };
    }
    case 'text':
      return {
        ...EMPTY,
        texts: given
          .slice(0, OPEN_ANSWERS_SHOWN)
          .flatMap(({ session_id, answer }) => ('text' in answer ? [{ session_id, text: answer.text.trim() }] : [])),
      };
    case 'matrix': {
      const rows = q.rows.map((row) => {
        const picked = given.flatMap(({ answer }) =>
          'rows' in answer && answer.rows[row.id] ? [answer.rows[row.id]] : [],
        );
        const of = picked.length;
        return {
          id: row.id,
          answered: of,
          counts: q.options.map((o) => {
            const count = picked.filter((p) => p === o.id).length;
            return { count, share: of ? count / of : 0 };
          }),
        };
      });
      return { ...EMPTY, options: q.options.map((o) => ({ id: o.id, count: 0, share: 0 })), rows };
    }
    case 'info':
      return EMPTY;
  }
}

/** A number question's values given more distinct values than this are counted in `NUMBER_BINS` equal bins. */
const MAX_DISTINCT = 20;
const NUMBER_BINS = 10;

export function numberSummary(q: Pick<Question, 'type' | 'min' | 'max'>, values: readonly number[]) {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  const mean = n ? values.reduce((s, v) => s + v, 0) / n : null;
  const median = n ? (n % 2 ? sorted[(n - 1) / 2] : ((sorted[n / 2 - 1] ?? 0) + (sorted[n / 2] ?? 0)) / 2) : null;
  const sd = n > 1 && mean !== null ? Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1)) : null;
  const share = (count: number) => (n ? count / n : 0);
  const single = (v: number) => {
    const count = sorted.filter((x) => x === v).length;
    return { label: String(v), from: v, to: v, count, share: share(count) };
  };
  let distribution: { label: string; from: number; to: number; count: number; share: number }[];
  if (q.type === 'scale' && q.min !== null && q.max !== null) {
    distribution = Array.from({ length: q.max - q.min + 1 }, (_, i) => single((q.min ?? 0) + i));
  } else {
    const distinct = [...new Set(sorted)];
    if (distinct.length <= MAX_DISTINCT) distribution = distinct.map(single);
    else {
      const lo = sorted[0] ?? 0;
      const width = ((sorted[n - 1] ?? 0) - lo) / NUMBER_BINS;
      distribution = Array.from({ length: NUMBER_BINS }, (_, i) => {
        const from = lo + i * width;
        const to = i === NUMBER_BINS - 1 ? (sorted[n - 1] ?? 0) : lo + (i + 1) * width;
        const count = sorted.filter((v) => v >= from && (i === NUMBER_BINS - 1 ? v <= to : v < to)).length;
        return { label: `${round(from)}–${round(to)}`, from, to, count, share: share(count) };
      });
    }
  }
  return {
    mean,
    median: median ?? null,
    sd,
    min: n ? (sorted[0] ?? null) : null,
    max: n ? (sorted[n - 1] ?? null) : null,
    distribution,
  };
}

const round = (v: number) => Math.round(v * 100) / 100;
