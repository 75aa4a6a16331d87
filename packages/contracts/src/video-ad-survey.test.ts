import { describe, expect, it } from 'vitest';
import {
  checkAnswers,
  missingTranslations,
  respondentProfile,
  surveyBodySchema,
  surveyProblems,
  VIDEO_AD_BLANKS,
  videoAdSurveyTemplate,
} from './index.ts';

/** The self-service video-ad survey template (issue 15, item 1): sound, blank only where the customer fills it. */
describe('the video-ad survey template', () => {
  it('is a sound survey whose only missing texts are the brand and competitors, in every language', () => {
    const template = videoAdSurveyTemplate('Spring ad');
    expect(surveyProblems(template)).toEqual([]);
    expect(surveyBodySchema.safeParse(template).success).toBe(true);
    expect(missingTranslations(template, ['ru', 'en', 'id', 'ko'])).toEqual(['ru', 'en', 'id', 'ko']);
    const blanks = template.questions.flatMap((q) => q.options.filter((o) => !o.text.en).map((o) => o.id));
    expect(blanks).toEqual([...VIDEO_AD_BLANKS]);

    for (const q of template.questions) for (const o of q.options) if (!o.text.ru) o.text.ru = `Brand ${o.id}`;
    expect(missingTranslations(template, ['ru'])).toEqual([]);
    expect(missingTranslations(template, ['en'])).toEqual(['en']);
  });

  it('takes a respondent’s complete answers and gives their sex and age', () => {
    const { questions } = videoAdSurveyTemplate('Spring ad');
    const answers = {
      seen_before: { choices: ['no'] },
      liking: { number: 8 },
      brand_recall: { choices: ['brand'] },
      feelings: { choices: ['joy', 'interest'] },
      purchase_intent: { number: 4 },
      sex: { choices: ['woman'] },
      age: { number: 31 },
    };
    expect(checkAnswers(questions, answers, { complete: true })).toEqual([]);
    expect(respondentProfile(questions, answers)).toEqual({ sex: 'woman', age: 31 });
    // A required question left out, or an age out of range, is refused.
    const { liking: _, ...partial } = answers;
    expect(checkAnswers(questions, partial, { complete: true }).map((p) => p.question)).toEqual(['liking']);
    expect(checkAnswers(questions, { ...answers, age: { number: 9 } }, { complete: true })).toHaveLength(1);
  });
});
