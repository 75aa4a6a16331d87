import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { consent, faceCheckAndCalibration, respondentText, TMP, test } from './respondent-support.ts';
import { cabinetApi, createProject, login, shot } from './support.ts';

const SHOTS = resolve(TMP, 'shots-respondent-questionnaires');
const en = (path: string): string => respondentText(path);
const text = (value: string) => ({ en: value, ru: value });

/**
 * A launched project whose scenario has a screener (before anything is recorded: a dropout question and a
 * 50/50 quota question on a sample of 2) and a survey after its contentless research; the quota link's token.
 */
async function projectWithQuestionnaires(page: Page) {
  const suffix = Date.now().toString(36);
  const projectId = await createProject(page, `Questionnaires ${suffix}`, { flow: 'old' });
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    {
      project_id: projectId,
      campaigns_data: [{ title: `Talk ${suffix}`, content_type: 'contentless', settings: { contentVideoDuration: 5 } }],
    },
  );
  await cabinetApi(page, 'POST', '/cabinet/surveys/', {
    type: 'screener',
    title: `Screener ${suffix}`,
    questions: [
      {
        id: 'work',
        type: 'single',
        text: text('Do you work in advertising?'),
        required: true,
        options: [
          { id: 'no', text: text('No') },
          { id: 'ads', text: text('Yes, in advertising'), rule: 'dropout' },
        ],
      },
      {
        id: 'sex',
        type: 'single',
        text: text('You are'),
        required: true,
        profile: 'sex',
        options: [
          { id: 'm', text: text('A man'), rule: 'quota', share: 50, sex: 'man' },
          { id: 'f', text: text('A woman'), rule: 'quota', share: 50, sex: 'woman' },
        ],
      },
    ],
  });
  await cabinetApi(page, 'POST', '/cabinet/surveys/', {
    type: 'survey',
    title: `Survey ${suffix}`,
    questions: [
      { id: 'intro', type: 'info', text: text('A few questions about the video') },
      {
        id: 'like',
        type: 'scale',
        text: text('How much did you like it?'),
        required: true,
        min: 1,
        max: 5,
        min_label: text('Not at all'),
        max_label: text('Very much'),
      },
      {
        id: 'brand',
        type: 'single',
        text: text('Which brand was it?'),
        other: true,
        options: [
          { id: 'a', text: text('Brand A') },
          { id: 'b', text: text('Brand B') },
        ],
      },
      {
        id: 'where',
        type: 'multiple',
        text: text('Where do you watch ads?'),
        options: [
          { id: 'tv', text: text('On TV') },
          { id: 'web', text: text('Online') },
          { id: 'street', text: text('In the street') },
        ],
      },
      { id: 'age', type: 'number', text: text('Your age'), min: 14, max: 99, profile: 'age' },
      { id: 'why', type: 'text', text: text('Why?') },
      {
        id: 'grid',
        type: 'matrix',
        text: text('Rate the video'),
        rows: [
          { id: 'music', text: text('Music') },
          { id: 'story', text: text('Story') },
        ],
        options: [
          { id: 'good', text: text('Good') },
          { id: 'bad', text: text('Bad') },
        ],
      },
    ],
  });
  const scenario = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${projectId}/scenarios/`, {
    campaign_ids: [created.campaigns[0]?.id],
  });
  // The questionnaires go into the scenario's slots as an analyst puts them there: in the scenario's form.
  await page.goto(`/cabinet/projects/${projectId}`);
  await page.getByTestId('scenario-edit').first().click();
  const form = page.getByTestId('scenario-form');
  await form.getByTestId('scenario-screener').click();
  await page.getByRole('option', { name: `Screener ${suffix}` }).click();
  await form.getByTestId('scenario-survey').click();
  await page.getByRole('option', { name: `Survey ${suffix}` }).click();
  await shot(page, SHOTS, '00-scenario-slots-en');
  await form.getByTestId('scenario-submit').click();
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('scenario-screener-badge')).toBeVisible();
  await expect(page.getByTestId('scenario-survey-badge')).toBeVisible();
  const link = await cabinetApi<{ id: string; token: string }>(
    page,
    'POST',
    `/cabinet/scenarios/${scenario.id}/project-accessor-links/`,
    { quota_size: 2, is_use_face_checker: false },
  );
  await cabinetApi(page, 'PATCH', `/cabinet/project-accessor-links/${link.id}/set-screener-first-option/`, {
    is_screener_first: true,
  });
  await cabinetApi(page, 'POST', `/cabinet/projects/${projectId}/launch/`, {});
  return { token: link.token, researchId: created.campaigns[0]?.id as string };
}

/** Answers the screener shown on `page`: the option labelled `work`, then the one labelled `sex`. */
async function answerScreener(page: Page, work: string, sex: string) {
  const form = page.getByTestId('questionnaire-screener');
  await expect(form).toBeVisible({ timeout: 30_000 });
  await form.getByRole('radio', { name: work, exact: true }).click();
  await form.getByRole('radio', { name: sex, exact: true }).click();
  await form.getByTestId('survey-form-submit').click();
}

test.use({ actionTimeout: 15_000 });

test('a screener before recording screens one respondent out and lets another through to the content, the survey and the code', async ({
  page,
  respondent,
  respondentContext,
}) => {
  test.setTimeout(240_000);
  await login(page);
  const { token, researchId } = await projectWithQuestionnaires(page);

  await test.step('someone working in advertising is screened out before anything is recorded', async () => {
    await respondent.goto(`/project-research/${token}?participant_id=worker-out`);
    await consent(respondent);
    await expect(respondent.getByTestId('questionnaire-screener')).toContainText(en('questionnaire.screener.title'));
    await shot(respondent, SHOTS, '01-screener-en');
    // A required question left empty is named before anything is sent.
    const screener = respondent.getByTestId('questionnaire-screener');
    await screener.getByRole('radio', { name: 'Yes, in advertising' }).click();
    await respondent.getByTestId('survey-form-submit').click();
    await expect(screener).toContainText("This is a required field. Don't leave it empty");
    await screener.getByRole('radio', { name: 'A man' }).click();
    await respondent.getByTestId('survey-form-submit').click();
    await expect(respondent.getByTestId('message-title')).toHaveText(en('end.screenOutTitle'), { timeout: 15_000 });
    await shot(respondent, SHOTS, '02-screened-out-en');
  });

  await test.step('someone else passes, is calibrated, sees the content, answers the survey and gets the code', async () => {
    const other = await respondentContext.newPage();
    // A page of its own storage: a new respondent, not the first one resuming.
    await other.goto(`/project-research/${token}?participant_id=worker-in`);
    await other.evaluate(() => localStorage.clear());
    await other.reload();
    await consent(other);
    await answerScreener(other, 'No', 'A woman');
    await faceCheckAndCalibration(other, { faceCheck: false, first: 'contentless-research' });
    const survey = other.getByTestId('questionnaire-survey');
    await expect(survey).toBeVisible({ timeout: 30_000 });
    await expect(survey).toContainText(en('questionnaire.survey.title'));
    await survey.getByTestId('survey-form-scale-step').nth(3).click();
    await survey.getByRole('radio', { name: 'Brand B' }).click();
    await survey.getByRole('checkbox', { name: 'On TV' }).click();
    await survey.getByRole('checkbox', { name: 'Online' }).click();
    await survey.getByTestId('survey-form-number').fill('34');
    await survey.getByTestId('survey-form-text').fill('Clear and short');
    const rows = survey.getByTestId('survey-form-matrix-row');
    await rows.nth(0).getByRole('radio').nth(0).click();
    await rows.nth(1).getByRole('radio').nth(1).click();
    await shot(other, SHOTS, '03-survey-en');
    await survey.getByTestId('survey-form-submit').click();
    await expect(other.getByTestId('completion-code')).toBeVisible({ timeout: 60_000 });
    await shot(other, SHOTS, '04-code-en');
  });

  await test.step('the analyst sees the statistics per question, filters them and exports the answers', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/cabinet/campaign/${researchId}/statistic`);
    const panel = page.getByTestId('survey-statistics');
    await expect(panel.getByTestId('statistics-summary')).toHaveText('Respondents who answered: 1, to the end: 1');
    const card = (id: string) => panel.locator(`[data-testid="question-statistics"][data-question="${id}"]`);
    await expect(card('like').getByTestId('stat-mean')).toHaveText('4');
    await expect(card('like').getByTestId('question-answered')).toHaveText('Answered 1 of 1 who saw the question');
    await expect(card('brand').getByTestId('bar')).toHaveCount(3); // A, B and "other"
    await expect(card('brand').getByTestId('bar').nth(1)).toContainText('Brand B');
    await expect(card('brand').getByTestId('bar-value').nth(1)).toHaveText('1 · 100%');
    await expect(card('where').getByTestId('bar-value')).toHaveText(['1 · 100%', '1 · 100%', '0 · 0%']);
    await expect(card('age').getByTestId('stat-median')).toHaveText('34');
    await expect(card('why').getByTestId('open-answer')).toHaveText(['Clear and short']);
    await card('why').getByTestId('open-search').fill('nothing like this');
    await expect(card('why').getByTestId('open-answer')).toHaveCount(0);
    await expect(card('grid').getByTestId('matrix-cell')).toHaveText(['1 · 100%', '0 · 0%', '0 · 0%', '1 · 100%']);
    await shot(page, SHOTS, '05-statistics-survey-en');

    // The screener: both respondents, the screened-out one too; then only the screened out, then only women.
    await panel.getByTestId('statistics-slot').getByText('Screener', { exact: false }).click();
    await expect(panel.getByTestId('statistics-summary')).toHaveText('Respondents who answered: 2, to the end: 2');
    await expect(card('work').getByTestId('bar-value')).toHaveText(['1 · 50%', '1 · 50%']);
    await panel.getByTestId('filter-statuses').click();
    await page.getByRole('option', { name: 'Screened out' }).click();
    await page.keyboard.press('Escape');
    await expect(panel.getByTestId('statistics-summary')).toHaveText('Respondents who answered: 1, to the end: 1');
    await expect(card('work').getByTestId('bar-value')).toHaveText(['0 · 0%', '1 · 100%']);
    await panel.getByTestId('filter-clear').click();
    await panel.getByTestId('filter-sex').getByText('Women').click();
    await expect(panel.getByTestId('statistics-summary')).toHaveText('Respondents who answered: 1, to the end: 1');
    await expect(card('sex').getByTestId('bar-value')).toHaveText(['0 · 0%', '1 · 100%']);
    await shot(page, SHOTS, '06-statistics-screener-filtered-en');

    // The export: the filtered respondents, one row each, one column per answer.
    const [csv] = await Promise.all([page.waitForEvent('download'), panel.getByTestId('export-csv').click()]);
    expect(csv.suggestedFilename()).toMatch(/^Screener .+ - screener\.csv$/);
    const body = await readFile((await csv.path()) as string, 'utf8');
    const lines = body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"worker-in"');
    expect(lines[1]).toContain('"A woman"');
    const [xlsx] = await Promise.all([page.waitForEvent('download'), panel.getByTestId('export-xlsx').click()]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    expect((await readFile((await xlsx.path()) as string)).subarray(0, 2).toString()).toBe('PK');

    // In Russian, and at phone width.
    await page.goto(`/cabinet/campaign/${researchId}/statistic?curr_lang=ru`);
    await expect(panel.getByTestId('statistics-summary')).toHaveText('Ответивших респондентов: 1, до конца: 1');
    await shot(page, SHOTS, '07-statistics-survey-ru');
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.scrollIntoViewIfNeeded();
    await shot(page, SHOTS, '08-statistics-phone-ru');
  });
});
