import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { STAFF } from '../playwright.config.ts';
import { cabinetApi, login, shot } from './support.ts';

/**
 * Self-service video-ad tests (issue 15) through the UI as a customer: a new test, its video uploaded and probed by
 * the worker, the subtype, the audience and respondents (the spec's minimum of 100), the survey filled, the price,
 * then the sending to moderation (irreversible: the wizard gives way to a read-only page); staff approve it from the
 * queue and add a package; the customer starts it. Also a save on an old version (409: reload) and a deleted draft.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(ROOT, '.tmp/shots-self-service');
const FILES = resolve(ROOT, '.tmp/e2e-self-service');

type Test = { id: string; title: string; survey_id: string; updated_at: string; state: string };
type LocalizedText = Record<string, string>;
type Survey = {
  id: string;
  title: string;
  enabled: boolean;
  updated_at: string;
  questions: {
    type: string;
    text: LocalizedText;
    options: { text: LocalizedText }[];
    rows: { text: LocalizedText }[];
    min_label?: LocalizedText;
    max_label?: LocalizedText;
  }[];
};

/** A real 6-second MP4 (test pattern and a tone), made once; its path. */
function spot(): string {
  mkdirSync(FILES, { recursive: true });
  const path = resolve(FILES, 'spot.mp4');
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=6:size=320x180:rate=10',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=6',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    path,
  ]);
  return path;
}

/** Fills every text the template leaves empty (the brand and the competitors), in every language, and saves it. */
async function fillSurvey(page: Page, surveyId: string): Promise<void> {
  const survey = await cabinetApi<Survey>(page, 'GET', `/cabinet/surveys/${surveyId}/`);
  let n = 0;
  const fill = (text: LocalizedText | undefined) => {
    if (!text) return;
    for (const language of ['ru', 'en', 'id', 'ko']) {
      n += 1;
      if (!text[language]) text[language] = `Brand ${n}`;
    }
  };
  for (const question of survey.questions) {
    fill(question.text);
    for (const option of question.options) fill(option.text);
    for (const row of question.rows) fill(row.text);
    fill(question.min_label);
    fill(question.max_label);
  }
  await cabinetApi(page, 'PATCH', `/cabinet/surveys/${surveyId}/`, {
    title: survey.title,
    enabled: survey.enabled,
    questions: survey.questions,
    updated_at: survey.updated_at,
  });
}

const newTest = (page: Page, title: string) =>
  cabinetApi<Test>(page, 'POST', '/cabinet/self-service/', { title, language: 'en' });

test('a customer sets a test up and sends it to moderation; staff approve it; the customer starts it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const title = `Summer spot ${suffix}`;
  const subtype = `TV spot ${suffix}`;
  await login(page);
  // The demo user keeps the categories directory: a subtype of video ads to choose.
  await cabinetApi(page, 'POST', '/cabinet/categories/', { kind: 'subtype', name: subtype, content_type: 'video' });

  await page.goto('/cabinet/self-service');
  await expect(page.getByRole('heading', { name: 'Self-service' })).toBeVisible();
  // Not staff: the server refuses the moderation queue, and no tab offers it.
  await expect(page.getByTestId('self-service-tab-moderation')).toHaveCount(0);
  await page.getByRole('link', { name: 'New test' }).first().click();
  await expect(page).toHaveURL(/\/cabinet\/self-service\/add$/);
  await page.getByTestId('self-service-create').click();
  await expect(page.getByText("This is a required field. Don't leave it empty")).toBeVisible();
  await page.getByTestId('self-service-title').fill(title);
  await page.getByTestId('self-service-create').click();
  await expect(page).toHaveURL(/\/cabinet\/self-service\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop() ?? '';

  // 1. The video: uploaded with the research form's uploader, its length known once the worker probed it.
  await expect(page.getByTestId('self-service-step-video')).toHaveAttribute('data-open', 'true');
  await page.getByTestId('media-input').setInputFiles(spot());
  await expect(page.getByTestId('self-service-video-length')).toContainText('Length: 0:06', { timeout: 60_000 });
  await expect(page.getByTestId('self-service-video-length')).toContainText('Sessions per interview: 1');
  await expect(page.getByTestId('self-service-step-video')).toHaveAttribute('data-open', 'false');
  await shot(page, SHOTS, 'video');

  // 2. The subtype, from the directory.
  await page.getByTestId('self-service-next').click();
  await page.getByTestId('self-service-category-subtype').click();
  await page.getByRole('option', { name: subtype }).click();
  await expect(page.getByTestId('self-service-unsaved')).toBeVisible();
  await page.getByTestId('self-service-next').click();
  await expect(page.getByText('Changes saved')).toBeVisible();
  await expect(page.getByTestId('self-service-step-categories')).toHaveAttribute('data-open', 'false');

  // 3. The audience: fewer than 100 respondents is refused with the spec's message.
  await expect(page.getByTestId('self-service-step-title')).toHaveText('Audience');
  await page.getByTestId('self-service-respondents').fill('50');
  await page.getByTestId('self-service-next').click();
  await expect(page.getByTestId('self-service-step-content-audience')).toContainText('At least 100 respondents');
  await page.getByTestId('self-service-respondents').fill('120');
  await page.getByTestId('self-service-age-min').fill('18');
  await page.getByTestId('self-service-age-max').fill('45');
  await page.getByTestId('self-service-regions').fill('ru, kz');
  await page.getByTestId('self-service-regions').blur();
  await expect(page.getByTestId('self-service-step-content-audience')).toContainText('RU');
  await expect(page.getByTestId('self-service-step-content-audience')).toContainText('KZ');
  await page.getByTestId('self-service-next').click();

  // 4. The survey: not ready until its blanks are filled and it is saved.
  await expect(page.getByTestId('self-service-survey-problems')).toBeVisible();
  await expect(page.getByTestId('self-service-survey-link')).toHaveAttribute(
    'href',
    /\/cabinet\/surveys\/[0-9a-f-]{36}$/,
  );
  const saved = await cabinetApi<Test>(page, 'GET', `/cabinet/self-service/${id}/`);
  await fillSurvey(page, saved.survey_id);
  await page.reload();

  // 5. The price, and the sending: confirmed, then nothing can be edited.
  await page.getByTestId('self-service-step-price').click();
  await expect(page.getByTestId('price-formula')).toHaveText(
    'Sessions per interview × respondents = sessions: 1 × 120 = 120',
  );
  await expect(page.getByTestId('self-service-ready')).toBeVisible();
  await shot(page, SHOTS, 'price');
  await page.getByTestId('self-service-submit').click();
  await expect(page.getByRole('dialog')).toContainText('cannot be undone');
  await page.getByTestId('confirm-action').click();
  await expect(page.getByText('The test was sent to moderation')).toBeVisible();
  await expect(page.getByTestId('self-service-page')).toHaveAttribute('data-state', 'moderation');
  await expect(page.getByTestId('self-service-draft')).toHaveCount(0);
  await expect(page.getByTestId('self-service-delete')).toHaveCount(0);
  await expect(page.getByTestId('self-service-summary')).toContainText('RU, KZ');
  await expect(page.getByTestId('self-service-history-item')).toHaveCount(2);
  await shot(page, SHOTS, 'moderation');

  await page.getByRole('link', { name: 'Back to self-service' }).click();
  const row = page.getByTestId('self-service-row').filter({ hasText: title });
  await expect(row.getByTestId('self-service-state')).toHaveText('In moderation');
  await expect(row).toContainText('0 of 120');

  // Staff find it in the moderation queue and approve it; they add a licence package to the customer.
  const staff = await browser.newPage();
  await login(staff, STAFF);
  await staff.goto('/cabinet/self-service?tab=moderation');
  await staff.getByTestId('self-service-row').filter({ hasText: title }).getByRole('link').first().click();
  await expect(staff.getByTestId('self-service-moderation')).toBeVisible();
  await staff.getByTestId('self-service-approve').click();
  await staff.getByTestId('confirm-action').click();
  await expect(staff.getByTestId('self-service-page')).toHaveAttribute('data-state', 'moderation_ok');
  const customer = await cabinetApi<{ public_user_id: string }>(page, 'GET', '/users/user-data/');
  await staff.goto('/cabinet/licences');
  await staff.getByTestId('licence-account-id').fill(customer.public_user_id);
  await expect(staff.getByTestId('licence-account')).toContainText('demo');
  await staff.getByTestId('licence-add').click();
  await staff.getByTestId('confirm-action').click();
  await expect(staff.getByTestId('licence-account')).toContainText('balance: 3,000');
  await staff.close();

  // The customer is told, and starts it: the price frozen and charged, collection open.
  await page.goto(`/cabinet/self-service/${id}`);
  await expect(page.getByTestId('self-service-start-price')).toContainText('120');
  await page.getByTestId('self-service-start').click();
  await expect(page.getByRole('dialog')).toContainText('120');
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('self-service-page')).toHaveAttribute('data-state', 'collection');
  await shot(page, SHOTS, 'collection');
  const licence = await cabinetApi<{ balance: number }>(page, 'GET', '/cabinet/licences/');
  expect(licence.balance).toBe(3000 - 120);
  const notes = await cabinetApi<{ items: { kind: string }[] }>(page, 'GET', '/cabinet/notifications/');
  expect(notes.items.map((n) => n.kind)).toContain('moderation_approved');
});

test('a save on a version changed meanwhile is refused, and the reload shows the new one', async ({ page }) => {
  await login(page);
  const created = await newTest(page, `Conflict ${Date.now().toString(36)}`);
  await page.goto(`/cabinet/self-service/${created.id}`);
  await page.getByTestId('self-service-title').fill('Mine');
  // Someone else saves first.
  await cabinetApi(page, 'PATCH', `/cabinet/self-service/${created.id}/`, {
    title: 'Theirs',
    updated_at: created.updated_at,
  });
  await page.getByTestId('self-service-save').click();
  await expect(page.getByTestId('self-service-conflict')).toBeVisible();
  await page.getByRole('button', { name: 'Reload the test' }).click();
  await expect(page.getByTestId('self-service-conflict')).toHaveCount(0);
  await expect(page.getByTestId('self-service-title')).toHaveValue('Theirs');
});

test('a draft is deleted after a confirmation', async ({ page }) => {
  await login(page);
  const title = `Deleted ${Date.now().toString(36)}`;
  const created = await newTest(page, title);
  await page.goto(`/cabinet/self-service/${created.id}`);
  await page.getByTestId('self-service-delete').click();
  await expect(page.getByRole('dialog')).toContainText(title);
  await page.getByTestId('confirm-action').click();
  await expect(page).toHaveURL(/\/cabinet\/self-service$/);
  await expect(page.getByTestId('self-service-row').filter({ hasText: title })).toHaveCount(0);
  await page.goto(`/cabinet/self-service/${created.id}`);
  await expect(page.getByTestId('self-service-not-found')).toBeVisible();
});
