import { type Answer, type Answers, checkAnswers, type Question, visibleQuestions } from '@emolens/contracts';

/** A 32-bit hash of a text (FNV-1a), the seed of a respondent's random order. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * `items` in a random order fixed by `seed` (mulberry32 and Fisher–Yates): one respondent sees one order on every
 * render and after a reload, another respondent another order.
 */
export function shuffled<T>(items: readonly T[], seed: string): T[] {
  let state = hash(seed);
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The answers with one question's answer set, or removed when it is empty (nothing chosen, nothing typed). */
export function withAnswer(answers: Answers, questionId: string, answer: Answer | null): Answers {
  const next = { ...answers };
  const empty =
    answer === null ||
    ('choices' in answer && answer.choices.length === 0 && !answer.other_text) ||
    ('text' in answer && answer.text === '') ||
    ('rows' in answer && Object.keys(answer.rows).length === 0);
  if (empty) delete next[questionId];
  else next[questionId] = answer;
  return next;
}

/** Only the answers of the questions shown for them: what is sent when the form is submitted. */
export function shownAnswers(questions: readonly Question[], answers: Answers): Answers {
  const shown = new Set(visibleQuestions(questions, answers).map((q) => q.id));
  return Object.fromEntries(Object.entries(answers).filter(([id]) => shown.has(id)));
}

/** The problems of complete answers by question id (the first of each), as `checkAnswers` finds them. */
export function completeProblems(questions: readonly Question[], answers: Answers): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of checkAnswers(questions, shownAnswers(questions, answers), { complete: true })) {
    if (!out.has(p.question)) out.set(p.question, p.message);
  }
  return out;
}
