import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { consent, faceCheckAndCalibration, respondentText, TMP, test } from './respondent-support.ts';
import { cabinetApi, login, shot } from './support.ts';

const SHOTS = resolve(TMP, 'shots-respondent-questionnaires');
const en = (path: string): string => respondentText(path);
const text = (value: string) => ({ en: value, ru: value });

/**
 * A launched project whose scenario has a screener (before anything is recorded: a dropout question and a
 * 50/50 quota question on a sample of 2) and a survey after its contentless research; the quota link's token.
 */
async function projectWithQuestionnaires(page: Page) {
  const suffix = Date.now().toString(36);
  const project = await cabinetApi<{ id: string }>(page, 'POST', '/cabinet/projects/', {
    title: `Questionnaires ${suffix}`,
    platform: 'toloka',
    respondent_language: 'en',
    audience_type: 'simple',
    flow_type: 'old',
  });
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    {
      project_id: project.id,
      campaigns_data: [{ title: `Talk ${suffix}`, content_type: 'contentless', settings: { contentVideoDuration: 5 } }],
    },
  );
  const screener = await cabinetApi<{ id: string }>(page, 'POST', '/cabinet/surveys/', {
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
        options: [
          { id: 'm', text: text('A man'), rule: 'quota', share: 50 },
          { id: 'f', text: text('A woman'), rule: 'quota', share: 50 },
        ],
      },
    ],
  });
  const survey = await cabinetApi<{ id: string }>(page, 'POST', '/cabinet/surveys/', {
    type: 'survey',
    title: `Survey ${suffix}`,
    questions: [
      { id: 'like', type: 'scale', text: text('How much did you like it?'), required: true, min: 1, max: 5 },
      { id: 'why', type: 'text', text: text('Why?') },
    ],
  });
  const scenario = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${project.id}/scenarios/`, {
    campaign_ids: [created.campaigns[0]?.id],
    screener_survey_id: screener.id,
    embedded_survey_id: survey.id,
  });
  const link = await cabinetApi<{ id: string; token: string }>(
    page,
    'POST',
    `/cabinet/scenarios/${scenario.id}/project-accessor-links/`,
    { quota_size: 2, is_use_face_checker: false },
  );
  await cabinetApi(page, 'PATCH', `/cabinet/project-accessor-links/${link.id}/set-screener-first-option/`, {
    is_screener_first: true,
  });
  await cabinetApi(page, 'POST', `/cabinet/projects/${project.id}/launch/`, {});
  return link.token;
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
  const token = await projectWithQuestionnaires(page);

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
    await survey.getByRole('textbox').fill('Clear and short');
    await shot(other, SHOTS, '03-survey-en');
    await survey.getByTestId('survey-form-submit').click();
    await expect(other.getByTestId('completion-code')).toBeVisible({ timeout: 60_000 });
    await shot(other, SHOTS, '04-code-en');
  });
});
