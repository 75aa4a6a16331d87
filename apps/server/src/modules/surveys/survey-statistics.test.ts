import type { QuestionStatistics, SurveyStatistics } from '@emolens/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn } from '../../test/harness.ts';
import { appWithFilesPerFile } from '../../test/per-file.ts';
import { afterTheVideoSurvey } from '../../test/questionnaires.ts';
import { insertProcessedRespondent } from '../../test/report-rows.ts';
import {
  linkWithQuestionnaires,
  type QuestionnaireSetup,
  type RespondentClient,
  recordJourney,
  respondentClient,
  WHO_WATCHES_SCREENER,
} from '../../test/respondent.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';
import { numberSummary } from './survey-statistics.ts';

/**
 * Questionnaire statistics of a research (issue 12 item 5) through the cabinet API: per question over real
 * respondents run through the respondent API, the response filter (sex, age, status, answers) with its
 * messages, and the XLSX and CSV exports.
 */
const t = appWithFilesPerFile('survey-statistics');
let alice: Client;
let bob: Client;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  ({ bob } = await loggedIn(t.app, 'bob'));
});

const SURVEY = afterTheVideoSurvey({
  whyRequired: false,
  age: { min: 0, max: 120, profile: 'age' },
  grid: { rows: { r1: 'Taste', r2: 'Price' }, options: ['good', 'bad'] },
});

/** Four respondents through the whole journey, one screened out, one who stopped in the middle of the survey. */
const PEOPLE = [
  {
    sex: 'm',
    survey: {
      like: { number: 5 },
      brand: { choices: ['b'] },
      why: { text: '  Fresh taste  ' },
      uses: { choices: ['x', 'y'] },
      age: { number: 25 },
      grid: { rows: { r1: 'good', r2: 'bad' } },
    },
  },
  {
    sex: 'f',
    survey: { like: { number: 4 }, brand: { choices: ['a'] }, uses: { choices: ['x'] }, age: { number: 41 } },
  },
  {
    sex: 'f',
    survey: {
      like: { number: 2 },
      brand: { choices: ['other'], other_text: 'Local =SUM(A1)' },
      age: { number: 33 },
      grid: { rows: { r1: 'bad' } },
    },
  },
  { sex: 'm', survey: { like: { number: 5 }, brand: { choices: ['b'] }, why: { text: 'Cheap' }, age: { number: 60 } } },
] as const;

async function respondent(setup: QuestionnaireSetup): Promise<RespondentClient> {
  const client = respondentClient(t.app);
  const res = await client.start(setup.token);
  expect(res.statusCode, res.body).toBe(201);
  return client;
}

/** The respondents above, a screened-out one, and one who gave two answers and left: the session ids in order. */
async function fieldwork(setup: QuestionnaireSetup): Promise<string[]> {
  const ids: string[] = [];
  for (const person of PEOPLE) {
    const client = await respondent(setup);
    const screener = await client.answers(
      'screener',
      { tv: { choices: ['yes'] }, sex: { choices: [person.sex] } },
      true,
    );
    expect(screener.statusCode, screener.body).toBe(200);
    const journey = await recordJourney(client);
    const survey = await client.answers('survey', person.survey, true);
    expect(survey.statusCode, survey.body).toBe(200);
    const done = await client.complete(journey.segments, journey.batches);
    expect(done.statusCode, done.body).toBe(200);
    ids.push(client.sessionId);
  }
  const out = await respondent(setup);
  expect((await out.answers('screener', { tv: { choices: ['no'] }, sex: { choices: ['f'] } }, true)).statusCode).toBe(
    200,
  );
  ids.push(out.sessionId);
  const left = await respondent(setup);
  expect((await left.answers('screener', { tv: { choices: ['yes'] }, sex: { choices: ['m'] } }, true)).statusCode).toBe(
    200,
  );
  expect((await left.answers('survey', { like: { number: 1 }, brand: { choices: ['a'] } })).statusCode).toBe(200);
  ids.push(left.sessionId);
  return ids;
}

async function setupWithFieldwork() {
  const setup = await linkWithQuestionnaires(t.app, alice, { screener: WHO_WATCHES_SCREENER, survey: SURVEY });
  const sessions = await fieldwork(setup);
  const researchId = setup.researchIds[0] as string;
  return { setup, sessions, researchId };
}

async function statistics(researchId: string, body: object, client = alice) {
  return client.request('POST', `/api/cabinet/campaigns/${researchId}/survey-statistics/`, { body });
}

async function stats(researchId: string, body: object): Promise<SurveyStatistics> {
  const res = await statistics(researchId, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const question = (s: SurveyStatistics, id: string) => s.questions.find((q) => q.id === id) as QuestionStatistics;

describe('questionnaire statistics', () => {
  it("count the survey's answers per question over every respondent who answered it", async () => {
    const { setup, researchId } = await setupWithFieldwork();
    const s = await stats(researchId, { slot: 'survey' });
    expect(s.slots).toEqual({
      screener: { id: setup.screener, title: 'Who watches' },
      survey: { id: setup.survey, title: 'After the video' },
    });
    expect(s.survey?.questions.map((q) => q.id)).toEqual(['intro', 'like', 'brand', 'why', 'uses', 'age', 'grid']);
    expect(s.other?.id).toBe(setup.screener);
    // Four finished, one left midway; the screened-out respondent never reached the survey.
    expect({ respondents: s.respondents, finished: s.finished }).toEqual({ respondents: 5, finished: 4 });
    // The information block has no statistics.
    expect(s.questions.map((q) => q.id)).toEqual(['like', 'brand', 'why', 'uses', 'age', 'grid']);

    const like = question(s, 'like');
    expect({ shown: like.shown, answered: like.answered }).toEqual({ shown: 5, answered: 5 });
    expect(like.numbers).toMatchObject({ mean: 17 / 5, median: 4, min: 1, max: 5 });
    expect(like.numbers?.sd).toBeCloseTo(Math.sqrt(((5 - 3.4) ** 2 * 2 + 0.6 ** 2 + 1.4 ** 2 + 2.4 ** 2) / 4), 10);
    expect(like.numbers?.distribution.map((d) => [d.label, d.count])).toEqual([
      ['1', 1],
      ['2', 1],
      ['3', 0],
      ['4', 1],
      ['5', 2],
    ]);

    const brand = question(s, 'brand');
    expect(brand.options).toEqual([
      { id: 'a', count: 2, share: 2 / 5 },
      { id: 'b', count: 2, share: 2 / 5 },
    ]);
    expect(brand.other).toEqual({ count: 1, share: 1 / 5, texts: ['Local =SUM(A1)'] });

    // Shown only to those who chose b: two of them, both answered, latest first.
    const why = question(s, 'why');
    expect({ shown: why.shown, answered: why.answered }).toEqual({ shown: 2, answered: 2 });
    expect(why.texts.map((x) => x.text)).toEqual(['Cheap', 'Fresh taste']);

    // Multiple choice: shares of those who answered; they add up to more than 1. Shown to the four who finished.
    const uses = question(s, 'uses');
    expect({ shown: uses.shown, answered: uses.answered }).toEqual({ shown: 4, answered: 2 });
    expect(uses.options).toEqual([
      { id: 'x', count: 2, share: 1 },
      { id: 'y', count: 1, share: 0.5 },
    ]);

    // Four distinct ages: every value its own bar.
    expect(question(s, 'age').numbers?.distribution.map((d) => d.label)).toEqual(['25', '33', '41', '60']);

    const grid = question(s, 'grid');
    expect(grid.answered).toBe(2);
    expect(grid.rows).toEqual([
      {
        id: 'r1',
        answered: 2,
        counts: [
          { count: 1, share: 0.5 },
          { count: 1, share: 0.5 },
        ],
      },
      {
        id: 'r2',
        answered: 1,
        counts: [
          { count: 0, share: 0 },
          { count: 1, share: 1 },
        ],
      },
    ]);
  });

  it("count the screener's answers, the screened-out respondent too", async () => {
    const { researchId } = await setupWithFieldwork();
    const s = await stats(researchId, { slot: 'screener' });
    expect(s.respondents).toBe(6);
    expect(question(s, 'tv').options).toEqual([
      { id: 'yes', count: 5, share: 5 / 6 },
      { id: 'no', count: 1, share: 1 / 6 },
    ]);
  });

  it('narrow to the respondents the filter takes: sex, age, status, answers, all together', async () => {
    const { setup, researchId } = await setupWithFieldwork();
    const count = async (filter: object, slot = 'survey') => (await stats(researchId, { slot, filter })).respondents;
    // Sex from the screener's sex question: men are 1, 4 and the one who left.
    expect(await count({ sex: 'man' })).toBe(3);
    expect(await count({ sex: 'woman' })).toBe(2);
    expect(await count({ sex: 'woman' }, 'screener')).toBe(3);
    expect(await count({ sex: 'off' })).toBe(5);
    // Age from the survey's age question, both ends included; a bound leaves out unknown ages (the one who left).
    expect(await count({ age_min: 33, age_max: 60 })).toBe(3);
    expect(await count({ age_min: 26 })).toBe(3);
    expect(await count({ age_max: 25 })).toBe(1);
    expect(await count({ statuses: ['completed'] })).toBe(4);
    expect(await count({ statuses: ['screened_out'] }, 'screener')).toBe(1);
    expect(await count({ statuses: ['started', 'screened_out'] }, 'screener')).toBe(2);
    // Answer conditions, as display logic reads them.
    const on = (survey: string | null, condition: object) => ({ answers: [{ survey_id: survey, ...condition }] });
    expect(await count(on(setup.survey, { question: 'brand', operator: 'selected', value: 'b' }))).toBe(2);
    expect(await count(on(setup.survey, { question: 'brand', operator: 'not_selected', value: 'b' }))).toBe(3);
    expect(await count(on(setup.survey, { question: 'why', operator: 'answered', value: null }))).toBe(2);
    expect(await count(on(setup.survey, { question: 'like', operator: 'greater', value: 4 }))).toBe(2);
    expect(await count(on(setup.survey, { question: 'like', operator: 'less', value: 3 }))).toBe(2);
    expect(await count(on(setup.survey, { question: 'like', operator: 'equals', value: 4 }))).toBe(1);
    expect(await count(on(setup.survey, { question: 'grid', operator: 'selected', value: 'r1:bad' }))).toBe(1);
    // By the screener's answers while looking at the survey.
    expect(await count(on(setup.screener, { question: 'sex', operator: 'selected', value: 'f' }))).toBe(2);
    // All together: women who finished, older than 35.
    const together = await stats(researchId, {
      slot: 'survey',
      filter: {
        sex: 'woman',
        age_min: 35,
        statuses: ['completed'],
        ...on(setup.screener, { question: 'tv', operator: 'selected', value: 'yes' }),
      },
    });
    expect(together.respondents).toBe(1);
    expect(question(together, 'brand').options[0]).toEqual({ id: 'a', count: 1, share: 1 });
  });

  it("narrow to a built report's respondents (its own filters, quality and happy filter included)", async () => {
    const { sessions, researchId } = await setupWithFieldwork();
    await t.app.ctx.queue.start({ work: false });
    // Two of the four are processed; the report takes the women among them.
    for (const sessionId of sessions.slice(0, 2)) {
      await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement: [0.5, 0.6] });
    }
    const created = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Women', filters: { respondents: { sex: 'woman' } } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const notBuilt = await statistics(researchId, { slot: 'survey', report_id: created.json().id });
    expect(notBuilt.statusCode).toBe(409);
    expect(notBuilt.json().key).toBe('report.notDone');
    await t.app.ctx.queue.run(buildReportJob, { report_id: created.json().id, generation: 1 });
    const s = await stats(researchId, { slot: 'survey', report_id: created.json().id });
    expect(s.respondents).toBe(1);
    expect(s.questions.find((q) => q.id === 'like')?.numbers?.mean).toBe(4);
    // The report's respondent list carries their answers, one column per answer.
    const people = await alice.request(
      'GET',
      `/api/cabinet/reports/${created.json().id}/export/?kind=respondents&format=csv&language=en`,
    );
    const [header, first] = people.body.trim().split(/\r?\n/);
    expect(header).toContain('"survey: like. Liked it?"');
    expect(header).toContain('"screener: ');
    expect(first?.split(',')[(header ?? '').split(',').indexOf('"survey: like. Liked it?"')]).toBe('"4"');
    const unknown = await statistics(researchId, { slot: 'survey', report_id: '3f2b6c1e-8a4d-4e7f-9b2a-1c5d6e7f8a9b' });
    expect(unknown.json().key).toBe('report.notFound');
  });

  it("say what is wrong with a filter, with the spec's messages", async () => {
    const { setup, researchId } = await setupWithFieldwork();
    const refused = async (filter: object) => {
      const res = await statistics(researchId, { slot: 'survey', filter });
      expect(res.statusCode, res.body).toBe(400);
      return res.json().field_keys;
    };
    expect(await refused({ age_min: 50, age_max: 20 })).toEqual({ 'filter.age_max': { key: 'filter.ageRange' } });
    expect(await refused({ sex: 'other' })).toEqual({ 'filter.sex': { key: 'validation.choice' } });
    expect(await refused({ age_min: 1.5 })).toEqual({ 'filter.age_min': { key: 'validation.wholeNumber' } });
    expect(
      await refused({ answers: [{ survey_id: setup.survey, question: 'nope', operator: 'answered', value: null }] }),
    ).toEqual({ 'filter.answers.0.question': { key: 'survey.unknownQuestion' } });
    // A questionnaire the research does not use is as unknown as a missing question.
    expect(
      await refused({
        answers: [
          { survey_id: '00000000-0000-4000-8000-000000000000', question: 'like', operator: 'answered', value: null },
        ],
      }),
    ).toEqual({ 'filter.answers.0.question': { key: 'survey.unknownQuestion' } });
    // An operator or value that does not suit the question.
    expect(
      await refused({ answers: [{ survey_id: setup.survey, question: 'like', operator: 'selected', value: 'a' }] }),
    ).toEqual({ 'filter.answers.0.value': { key: 'validation.choice' } });
    expect(
      await refused({ answers: [{ survey_id: setup.survey, question: 'brand', operator: 'selected', value: 'zzz' }] }),
    ).toEqual({ 'filter.answers.0.value': { key: 'validation.choice' } });
    const unknownField = await statistics(researchId, { slot: 'survey', filter: { city: 'Oslo' } });
    expect(unknownField.statusCode).toBe(400);
  });

  it("are the research owner's only, and empty for a research without questionnaires", async () => {
    const { researchId } = await setupWithFieldwork();
    const foreign = await statistics(researchId, { slot: 'survey' }, bob);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().key).toBe('campaign.notFound');
    const exportForeign = await bob.request('POST', `/api/cabinet/campaigns/${researchId}/survey-statistics/export/`, {
      body: { slot: 'survey', format: 'csv', language: 'en' },
    });
    expect(exportForeign.statusCode).toBe(404);

    const bare = await linkWithQuestionnaires(t.app, alice, { screener: null, survey: null });
    const none = await stats(bare.researchIds[0] as string, { slot: 'survey' });
    expect(none).toMatchObject({
      slots: { screener: null, survey: null },
      survey: null,
      respondents: 0,
      questions: [],
    });
    const noFile = await alice.request(
      'POST',
      `/api/cabinet/campaigns/${bare.researchIds[0]}/survey-statistics/export/`,
      { body: { slot: 'survey', format: 'csv', language: 'en' } },
    );
    expect(noFile.statusCode).toBe(404);
    expect(noFile.json().key).toBe('survey.notFound');
  });

  it('leave previews out', async () => {
    const setup = await linkWithQuestionnaires(t.app, alice, {
      screener: WHO_WATCHES_SCREENER,
      survey: SURVEY,
      launch: false,
    });
    const preview = await respondent(setup);
    expect(preview.session?.preview).toBe(true);
    expect(
      (await preview.answers('screener', { tv: { choices: ['yes'] }, sex: { choices: ['m'] } }, true)).statusCode,
    ).toBe(200);
    expect((await stats(setup.researchIds[0] as string, { slot: 'screener' })).respondents).toBe(0);
  });
});

describe('the export', () => {
  const exportFile = async (researchId: string, body: object) => {
    const res = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/survey-statistics/export/`, { body });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('as CSV: one row per respondent, one column per answer, texts in the language asked for', async () => {
    const { sessions, researchId } = await setupWithFieldwork();
    const res = await exportFile(researchId, { slot: 'survey', format: 'csv', language: 'ru', filter: { sex: 'man' } });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('After%20the%20video%20-%20survey.csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .map(parseCsvLine);
    expect(lines[0]).toEqual([
      'session',
      'participant_id',
      'status',
      'sex',
      'age',
      'started_at',
      'finished',
      'like. ru Liked it?',
      'brand. ru Brand',
      'brand. ru Brand (other)',
      'why. ru Why b?',
      'uses. ru Uses',
      'age. ru Age',
      'grid. ru Grid — ru Taste',
      'grid. ru Grid — ru Price',
    ]);
    // Men: the one who left (latest), then 4 and 1.
    expect(lines.slice(1).map((l) => l[0])).toEqual([sessions[5], sessions[3], sessions[0]]);
    const first = lines.find((l) => l[0] === sessions[0]) as string[];
    expect(first.slice(2, 5)).toEqual(['completed', 'man', '25']);
    expect(first.slice(6)).toEqual(['1', '5', 'ru b', '', '  Fresh taste  ', 'ru x; ru y', '25', 'ru good', 'ru bad']);
    const left = lines[1] as string[];
    expect(left.slice(2, 7)).toEqual(['started', 'man', '', left[5], '0']);
  });

  it('as XLSX: a workbook whose sheet holds the same table, numbers as numbers, a formula-like text as text', async () => {
    const { sessions, researchId } = await setupWithFieldwork();
    const res = await exportFile(researchId, {
      slot: 'survey',
      format: 'xlsx',
      language: 'en',
      filter: { sex: 'woman' },
    });
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(strFromU8(files['xl/workbook.xml'] as Uint8Array)).toContain('<sheet name="After the video"');
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml'] as Uint8Array);
    const rows = [...sheet.matchAll(/<row r="(\d+)">(.*?)<\/row>/g)];
    expect(rows).toHaveLength(3); // header + two women
    expect(rows[0]?.[2]).toContain(
      '<c r="H1" s="1" t="inlineStr"><is><t xml:space="preserve">like. Liked it?</t></is></c>',
    );
    const third = rows.find((r) => r[2]?.includes(sessions[2] as string))?.[2] ?? '';
    expect(third).toMatch(/<c r="H\d+"><v>2<\/v><\/c>/);
    expect(third).toContain('<t xml:space="preserve">Local =SUM(A1)</t>');
    expect(third).not.toContain('<f>');
  });
});

describe('number summaries', () => {
  it('count many distinct numbers in ten equal bins, the largest in the last', () => {
    const values = Array.from({ length: 101 }, (_, i) => i);
    const s = numberSummary({ type: 'number', min: null, max: null }, values);
    expect(s).toMatchObject({ mean: 50, median: 50, min: 0, max: 100 });
    expect(s.distribution.map((d) => d.count)).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 10, 11]);
    expect(s.distribution[0]?.label).toBe('0–10');
    expect(numberSummary({ type: 'number', min: null, max: null }, [])).toMatchObject({
      mean: null,
      median: null,
      sd: null,
      distribution: [],
    });
  });
});

/** One CSV line (RFC 4180, every cell quoted as `toCsv` writes it). */
function parseCsvLine(line: string): string[] {
  return [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => (m[1] ?? '').replaceAll('""', '"'));
}
