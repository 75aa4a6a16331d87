import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { consent, faceCheckAndCalibration, recordUploads, respondentText, TMP, test } from './respondent-support.ts';
import { cabinetApi, createProject, login, SCREENSHOTS, scenarioWithLink, shot } from './support.ts';

/**
 * Validation before the content (issue 31, item 3; decision 050): a respondent whose camera films a still photograph
 * (the face never follows the dots) fails the calibration check, calibrates once more, fails again and ends as
 * "calibration failed" before any content; the project's fieldwork counts them under their own column.
 */
const SHOTS = resolve(TMP, 'shots-calibration-check');
const photo = resolve(import.meta.dirname, '../../node_modules/@vladmandic/face-api/demo/sample1.jpg');
/** The respondent takes part in Russian, the product's default language. */
const ru = (path: string): string => respondentText(path, 'ru');

/** An old-flow project (12 s calibration) with one picture research at the default check settings; launched. */
async function launchedPictureProject(page: Page) {
  const suffix = Date.now().toString(36);
  const projectId = await createProject(page, `Calibration check ${suffix}`, { flow: 'old' });
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    {
      project_id: projectId,
      campaigns_data: [{ title: `Pictures ${suffix}`, content_type: 'pictures' }],
    },
  );
  const researchId = created.campaigns[0]?.id ?? '';
  await page.goto(`/cabinet/campaign/${researchId}/form?curr_lang=en`);
  await page.getByTestId('media-input').setInputFiles(photo);
  await expect(page.getByTestId('media-item').getByTestId('media-status')).toHaveText('Ready', { timeout: 30_000 });
  // The research form shows the check's settings at their defaults: on, 10 %, end the session.
  await expect(page.getByTestId('setting-validationBeforeContent')).toBeChecked();
  await expect(page.getByTestId('setting-validationThresholdPercent')).toHaveValue('10 %');
  await expect(page.getByTestId('setting-validationFailure-end')).toBeChecked();
  await shot(page, SHOTS, 'research-form-en', { target: page.getByTestId('campaign-settings') });
  if (SCREENSHOTS) {
    await page.goto(`/cabinet/campaign/${researchId}/form?curr_lang=ru`);
    await shot(page, SHOTS, 'research-form-ru', { target: page.getByTestId('campaign-settings') });
  }
  const { items } = await cabinetApi<{ items: { id: string }[] }>(
    page,
    'GET',
    `/cabinet/campaigns/${researchId}/media/`,
  );
  const { updated_at } = await cabinetApi<{ updated_at: string }>(page, 'GET', `/cabinet/campaigns/${researchId}/`);
  await cabinetApi(page, 'PATCH', `/cabinet/campaigns/${researchId}/update-campaign-data/`, {
    picture_gallery: { items: items.map((m) => ({ image: m.id, duration_seconds: 2 })) },
    updated_at,
  });
  const token = await scenarioWithLink(page, projectId, [researchId], { quota_size: 5, is_use_face_checker: true });
  await cabinetApi(page, 'POST', `/cabinet/projects/${projectId}/launch/`, {});
  return { projectId, token };
}

/** When screenshots are asked for: the screen as it is, and on a 390 px phone. */
async function shots(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  await shot(page, SHOTS, `${name}-ru`, { closeNotifications: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, SHOTS, `${name}-ru-390`, { closeNotifications: false });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The check's wait, then its answer: the screen `next` (the engine runs on the worker: allow for a busy machine). */
async function checked(respondent: Page, next: string, shotName: string) {
  const check = respondent.getByTestId('calibration-check');
  await expect(check).toBeVisible({ timeout: 15_000 });
  await expect(check.getByTestId('message-title')).toHaveText(ru('calibrationCheck.title'));
  await shots(respondent, shotName);
  const started = Date.now();
  await expect(respondent.getByTestId(next)).toBeVisible({ timeout: 150_000 });
  return Date.now() - started;
}

test('a still face fails the calibration check twice and ends before the content, counted in fieldwork', async ({
  page,
  respondent,
}, testInfo) => {
  test.setTimeout(420_000);
  await login(page);
  const { projectId, token } = await launchedPictureProject(page);
  const uploads = recordUploads(respondent);
  await respondent.goto(`/project-research/${token}?participant_id=still-1&curr_lang=ru`);
  await consent(respondent);

  const waits: number[] = [];
  await test.step('the first check fails: a short explanation, and the calibration once more', async () => {
    await faceCheckAndCalibration(respondent, { first: 'calibration-check' });
    waits.push(await checked(respondent, 'calibration-retry', 'checking'));
    await expect(respondent.getByTestId('calibration-retry')).toContainText(ru('calibrationCheck.retryText'));
    await shots(respondent, 'retry');
    await respondent.getByTestId('calibration-retry-start').click();
  });

  await test.step('the second check fails: the session ends as "calibration failed", before any content', async () => {
    // Straight to the countdown: the recording runs on, the click was the respondent's.
    await expect(respondent.getByTestId('calibration-countdown')).toBeVisible({ timeout: 10_000 });
    await expect(respondent.getByTestId('calibration-moving')).toBeVisible({ timeout: 15_000 });
    await expect(respondent.getByTestId('calibration-validation')).toBeVisible({ timeout: 45_000 });
    waits.push(await checked(respondent, 'end-calibration-failed', 'checking-again'));
    const end = respondent.getByTestId('end-calibration-failed');
    await expect(end.getByTestId('message-title')).toHaveText(ru('end.calibrationFailedTitle'));
    // No redirect is set: the screen-out's code is shown to copy.
    await expect(end.getByTestId('completion-code')).toBeVisible();
    await shots(respondent, 'end');
    const sent = [...uploads.events.values()].flat();
    expect(sent.filter((e) => e.type === 'calibration_start')).toHaveLength(2);
    expect(sent.filter((e) => e.type === 'validation_end')).toHaveLength(2);
    expect(sent.some((e) => e.type === 'research_start' || e.type === 'picture_shown')).toBe(false);
    testInfo.annotations.push({ type: 'check waits (ms)', description: waits.join(', ') });
  });

  await test.step('the fieldwork panel counts it under its own column, not as a complete', async () => {
    await page.goto(`/cabinet/projects/${projectId}?curr_lang=en`);
    const total = page.getByTestId('fieldwork-panel').getByTestId('quota-total');
    await expect(total.locator('[data-col="calibration_failed"]')).toHaveText('1', { timeout: 20_000 });
    await expect(total.locator('[data-col="completes"]')).toHaveText('0');
    await expect(total.locator('[data-col="pending"]')).toHaveText('0');
    await expect(page.getByTestId('session-row').getByTestId('session-status')).toHaveText('Calibration failed');
    await shot(page, SHOTS, 'fieldwork-en', { target: page.getByTestId('fieldwork-panel') });
  });
});
