// A questionnaire after its first save: a save at an old version refused with a reload, a questionnaire linked to a
// scenario that cannot be deleted, a launched one frozen and copied.
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { type CabinetSurvey, cabinetApi, createProject, login, shot } from './support.ts';

const SHOTS = resolve(import.meta.dirname, '../../.tmp/shots-surveys');

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

test('a save at an old version is refused with a reload; a linked questionnaire cannot be deleted; a launched one is frozen and copied', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  await login(page);
  const question = {
    id: 'brand',
    type: 'single',
    text: { en: 'Which brand?', ru: 'Какой бренд?' },
    options: [
      { id: 'a', text: { en: 'Alpha', ru: 'Альфа' } },
      { id: 'b', text: { en: 'Beta', ru: 'Бета' }, rule: 'dropout' },
    ],
  };
  const survey = await cabinetApi<CabinetSurvey>(page, 'POST', '/cabinet/surveys/', {
    type: 'screener',
    title: `Linked screener ${suffix}`,
    questions: [question],
  });

  await test.step('changed elsewhere while edited here: 409, the notice and a reload', async () => {
    await page.goto(`/cabinet/surveys/${survey.id}`);
    await page.getByTestId('survey-title').fill(`Mine ${suffix}`);
    await cabinetApi(page, 'PATCH', `/cabinet/surveys/${survey.id}/`, {
      title: `Theirs ${suffix}`,
      enabled: true,
      questions: survey.questions,
      updated_at: survey.updated_at,
    });
    await page.getByTestId('survey-save').click();
    const conflict = page.getByTestId('survey-conflict');
    await expect(conflict).toContainText('Someone else changed this in the meantime.');
    await conflict.getByRole('button', { name: 'Reload' }).click();
    await expect(conflict).toHaveCount(0);
    await expect(page.getByTestId('survey-title')).toHaveValue(`Theirs ${suffix}`);
    await expect(page.getByTestId('survey-save-status')).toHaveText('All changes saved');
  });

  await test.step('unsaved changes ask before leaving', async () => {
    await page.getByTestId('survey-title').fill(`Unsaved ${suffix}`);
    await page.getByRole('link', { name: 'Questionnaires' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay on the page' }).click();
    await expect(page.getByTestId('survey-title')).toHaveValue(`Unsaved ${suffix}`);
    await page.getByTestId('survey-discard').click();
  });

  const projectId = await createProject(page, `Screened project ${suffix}`);
  const research = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    {
      project_id: projectId,
      campaigns_data: [{ title: `Interview ${suffix}`, content_type: 'contentless' }],
    },
  );
  const scenario = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${projectId}/scenarios/`, {
    description: 'Screened',
    campaign_ids: [research.campaigns[0]?.id],
    screener_survey_id: survey.id,
  });

  await test.step('linked: the list names the project and delete says why not', async () => {
    await page.goto('/cabinet/surveys');
    const row = page.getByTestId('survey-row').filter({ hasText: `Theirs ${suffix}` });
    await expect(row.getByTestId('survey-links')).toContainText(`Screened project ${suffix} · scenario 1, screener`);
    const remove = row.getByTestId('survey-delete');
    await expect(remove).toBeDisabled();
    await expect(remove).toHaveAttribute(
      'aria-label',
      'The questionnaire is used in a scenario: remove it there first, or make a copy',
    );
  });

  await cabinetApi(page, 'POST', `/cabinet/scenarios/${scenario.id}/project-accessor-links/`, {});
  await cabinetApi(page, 'POST', `/cabinet/projects/${projectId}/launch/`, {});

  await test.step('launched: read-only with the spec’s message; the copy is editable', async () => {
    await page.goto(`/cabinet/surveys/${survey.id}`);
    await expect(page.getByTestId('survey-read-only')).toContainText(
      'The questionnaire belongs to a launched project: make a copy to change it',
    );
    await expect(page.getByTestId('survey-frozen')).toBeVisible();
    await expect(page.getByTestId('survey-title')).toHaveAttribute('readonly', '');
    await expect(page.getByTestId('question-text')).toHaveAttribute('readonly', '');
    await expect(page.getByTestId('survey-save-bar')).toHaveCount(0);
    await expect(page.getByTestId('question-add')).toHaveCount(0);
    await expect(page.getByTestId('question-drag-handle')).toHaveCount(0);
    await shot(page, SHOTS, 'frozen-en-1440');
    await page.getByTestId('survey-frozen-copy').click();
    await expect(page.getByTestId('survey-heading')).toHaveText(`Theirs ${suffix} (copy)`);
    expect(page.url()).not.toContain(survey.id);
    await expect(page.getByTestId('survey-read-only')).toHaveCount(0);
    await expect(page.getByTestId('survey-links')).toHaveText('Not linked to a scenario');
    await expect(page.getByTestId('question-text')).toHaveValue('Which brand?');
    await expect(page.getByTestId('question-text')).not.toHaveAttribute('readonly', '');
  });
});
