import { type Language, type Survey, surveyOutput } from '@emolens/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Client } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { aliceAndBobWithProjectEachTest, type DraftProject } from '../../test/projects.ts';
import { everyLanguage, questionnaireOption, WHO_WATCHES_SCREENER } from '../../test/respondent.ts';

/** A project of `count` contentless researches for respondents speaking `language`. */
export const projectIn = (language: Language, count: number): DraftProject => ({
  title: `Project ${language}`,
  platform: 'cint',
  respondent_language: language,
  researches: Array.from({ length: count }, (_, i) => ({ title: `Interview ${i + 1}`, content_type: 'contentless' })),
});

/** A text in every respondent language, or in English only. */
export const text = (en: string, every = true) => (every ? everyLanguage(en) : { ru: '', en, id: '', ko: '' });
export const option = questionnaireOption;

export const SCREENER = WHO_WATCHES_SCREENER;

/** A survey with a question of every kind. */
export const SURVEY = {
  type: 'survey',
  title: 'After the video',
  questions: [
    { id: 'intro', type: 'info', text: text('A few questions') },
    {
      id: 'like',
      type: 'scale',
      text: text('Liked it?'),
      min: 1,
      max: 5,
      min_label: text('no'),
      max_label: text('yes'),
    },
    { id: 'brand', type: 'single', text: text('Brand'), other: true, options: [option('a'), option('b')] },
    {
      id: 'why',
      type: 'text',
      text: text('Why b?'),
      conditions: [{ question: 'brand', operator: 'selected', value: 'b' }],
    },
    { id: 'uses', type: 'multiple', text: text('Uses'), random_order: true, options: [option('x'), option('y')] },
    { id: 'age', type: 'number', text: text('Age'), min: 18, max: 99 },
    {
      id: 'grid',
      type: 'matrix',
      text: text('Grid'),
      rows: [{ id: 'r1', text: text('Row') }],
      options: [option('c1'), option('c2')],
    },
  ],
};

export async function created(client: Client, body: object): Promise<Survey> {
  const res = await client.request('POST', '/api/cabinet/surveys/', { body });
  expect(res.statusCode, res.body).toBe(201);
  return surveyOutput.parse(res.json());
}
export const url = (id: string, action = '') => `/api/cabinet/surveys/${id}/${action ? `${action}/` : ''}`;
/** The message key of each field of a refusal. */
export const fieldKeys = (res: LightMyRequestResponse) =>
  Object.fromEntries(
    Object.entries(res.json().field_keys ?? {}).map(([path, m]) => [path, (m as { key: string }).key]),
  );

/**
 * The setup of the questionnaire test files, called at a file's top level: one app for the file, and before each
 * test Alice and Bob with Alice's draft project (respondents in Russian) and its two researches (`my`). `read` gives
 * a questionnaire as Alice (or `client`) reads it; `scenario` makes a scenario in Alice's project (or `project`, as
 * `client`).
 */
export function questionnairesPerFile() {
  const t = appPerFile();
  const my = aliceAndBobWithProjectEachTest(t, projectIn('ru', 2));
  const read = async (id: string, client = my.alice) =>
    surveyOutput.parse((await client.request('GET', url(id))).json());
  async function scenario(body: object, project = my.projectId, client = my.alice) {
    return client.request('POST', `/api/cabinet/projects/${project}/scenarios/`, { body });
  }
  return { t, my, read, scenario };
}
