import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { STAFF } from '../playwright.config.ts';
import {
  CALIBRATED_START,
  consent,
  faceCheckAndCalibration,
  recorderChunks,
  respondentThroughApi,
  type SentEvent,
  test,
} from './respondent-support.ts';
import { astronautVideo, cabinetApi, login, shot } from './support.ts';

/**
 * Self-service video-ad tests (issue 15) through the UI as a customer: a new test, its video uploaded and probed by
 * the worker, the subtype, the audience and respondents (the spec's minimum of 100), the survey filled, the price,
 * then the sending to moderation (irreversible: the wizard gives way to a read-only page); staff approve it from the
 * queue and add a package; the customer starts it; 100 respondents complete it and the report appears. Also a save
 * on an old version (409: reload) and a deleted draft.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(ROOT, '.tmp/shots-self-service');
const FILES = resolve(ROOT, '.tmp/e2e-self-service');
/** The spec's minimum. */
const RESPONDENTS = 100;

type Test = {
  id: string;
  title: string;
  survey_id: string;
  campaign_id: string;
  updated_at: string;
  state: string;
  collected: number;
  quota_link: string | null;
  report_id: string | null;
};
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

/** A real 3-second MP4 (test pattern and a tone), made once; its path. */
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
    'testsrc=duration=3:size=320x180:rate=10',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=3',
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

test('a customer sets a test up and sends it to moderation; staff approve it; the customer starts it; 100 respondents complete it and the report appears', async ({
  page,
  browser,
  respondentContext,
  playwright,
  baseURL,
}) => {
  test.setTimeout(900_000);
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
  await expect(page.getByTestId('self-service-video-length')).toContainText('Length: 0:03', { timeout: 60_000 });
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
  await page.getByTestId('self-service-respondents').fill(String(RESPONDENTS));
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
    `Sessions per interview × respondents = sessions: 1 × ${RESPONDENTS} = ${RESPONDENTS}`,
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
  await expect(row).toContainText(`0 of ${RESPONDENTS}`);

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
  await expect(page.getByTestId('self-service-start-price')).toContainText(String(RESPONDENTS));
  await page.getByTestId('self-service-start').click();
  await expect(page.getByRole('dialog')).toContainText(String(RESPONDENTS));
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('self-service-page')).toHaveAttribute('data-state', 'collection');
  await shot(page, SHOTS, 'collection');
  const licence = await cabinetApi<{ balance: number }>(page, 'GET', '/cabinet/licences/');
  expect(licence.balance).toBe(3000 - RESPONDENTS);
  const notes = await cabinetApi<{ items: { kind: string }[] }>(page, 'GET', '/cabinet/notifications/');
  expect(notes.items.map((n) => n.kind)).toContain('moderation_approved');

  const started = await cabinetApi<Test>(page, 'GET', `/cabinet/self-service/${id}/`);
  const quotaLink = started.quota_link ?? '';
  await expect(page.getByTestId('self-service-quota-link')).toContainText(quotaLink);
  const token = new URL(quotaLink).pathname.split('/').pop() ?? '';

  // One respondent in the browser (the other browser journeys are the respondent specs'); the rest through the API.
  await test.step('a respondent takes it in the browser: webcam (fake), face check, calibration, the ad, the survey, the code', async () => {
    const respondent = await respondentContext.newPage();
    await respondent.goto(`/project-research/${token}?participant_id=viewer-1`);
    await consent(respondent);
    // The self-service test runs the new flow: the 34-second calibration; then the 3-second ad, then the survey
    // (the completion checks that the ad was shown to its end).
    await faceCheckAndCalibration(respondent, { calibrationSeconds: 34, first: 'questionnaire-survey' });
    const survey = respondent.getByTestId('questionnaire-survey');
    const question = (text: string) => survey.getByTestId('survey-form-question').filter({ hasText: text });
    await survey.getByRole('radio', { name: 'No', exact: true }).click();
    await question('Very much').getByTestId('survey-form-scale-step').nth(7).click();
    await survey.getByRole('radio', { name: "I don't remember" }).click();
    await survey.getByRole('checkbox', { name: 'Interest' }).click();
    await question('Definitely not').getByTestId('survey-form-scale-step').nth(3).click();
    await survey.getByRole('radio', { name: 'Female', exact: true }).click();
    await survey.getByTestId('survey-form-number').fill('31');
    await shot(respondent, SHOTS, 'respondent-survey');
    await survey.getByTestId('survey-form-submit').click();
    await expect(respondent.getByTestId('completion-code')).toBeVisible({ timeout: 60_000 });
    await respondent.close();
  });

  await test.step(`the other ${RESPONDENTS - 1} go through the respondent API with real webcam recordings; the link is then full`, async () => {
    // A 4-second recording of a face: 0.5 s of calibration, the 3-second ad, the end.
    const chunks = recorderChunks(readFileSync(astronautVideo(FILES, 4)), 3);
    const events: SentEvent[] = [
      ...CALIBRATED_START,
      { type: 'research_start', t: 600, campaign_id: started.campaign_id, index: 0 },
      { type: 'research_end', t: 3600, campaign_id: started.campaign_id },
      { type: 'step', t: 3700, step: 'end' },
    ];
    const request = await playwright.request.newContext({ baseURL });
    const ends: string[] = [];
    let next = 2;
    // Six at a time, as respondents arriving together.
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next <= RESPONDENTS) {
          const n = next++;
          const end = await respondentThroughApi(request, token, {
            chunks,
            events,
            participant: `viewer-${n}`,
            survey: {
              seen_before: { choices: [n % 3 === 0 ? 'yes' : 'no'] },
              liking: { number: 1 + (n % 10) },
              brand_recall: { choices: [n % 4 === 0 ? 'dont_remember' : 'brand'] },
              feelings: { choices: n % 2 ? ['joy', 'interest'] : ['boredom'] },
              purchase_intent: { number: 1 + (n % 5) },
              sex: { choices: [n % 2 ? 'man' : 'woman'] },
              age: { number: 18 + (n % 40) },
            },
          });
          ends.push(end.outcome);
        }
      }),
    );
    expect(ends).toEqual(Array(RESPONDENTS - 1).fill('complete'));
    // Quota full: one more is turned away.
    const info = await request.get(`/r/links/${token}`);
    expect(((await info.json()) as { state: string }).state).toBe('quota_full');
    await request.dispose();
  });

  await test.step('the workers process the 100 recordings; collection ends and the report is built by itself', async () => {
    await page.goto(`/cabinet/self-service/${id}`);
    await expect(page.getByTestId('self-service-page')).toHaveAttribute('data-state', /collection|report_/);
    await shot(page, SHOTS, 'collecting');
    await expect
      .poll(async () => (await cabinetApi<Test>(page, 'GET', `/cabinet/self-service/${id}/`)).state, {
        timeout: 600_000,
        intervals: [5_000],
      })
      .toBe('report_completed');
    await page.reload();
    await expect(page.getByTestId('self-service-page')).toHaveAttribute('data-state', 'report_completed');
    await expect(page.getByTestId('self-service-history-item')).toHaveCount(6);
    await shot(page, SHOTS, 'report-completed');
    // The notification is report.built's other subscriber: a job of its own, taken at its queue's next poll.
    await expect
      .poll(
        async () =>
          (await cabinetApi<{ items: { kind: string }[] }>(page, 'GET', '/cabinet/notifications/')).items.map(
            (n) => n.kind,
          ),
        { timeout: 30_000 },
      )
      .toEqual(expect.arrayContaining(['collection_finished', 'report_built']));
    // The presentation is being made (or made) for the customer.
    await expect(page.getByTestId('self-service-presentation')).toBeVisible();

    await page.getByTestId('self-service-report').click();
    await expect(page.getByTestId('report-n')).toHaveText(`Respondents: ${RESPONDENTS}`, { timeout: 30_000 });
    await expect(page.getByTestId('report-curves').locator('canvas').first()).toBeVisible();
    await shot(page, SHOTS, 'report');
  });

  const list = page.getByTestId('self-service-row').filter({ hasText: title });
  await page.goto('/cabinet/self-service');
  await expect(list).toContainText(`${RESPONDENTS} of ${RESPONDENTS}`);
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
