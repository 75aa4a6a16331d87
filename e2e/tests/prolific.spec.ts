import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONSENT_POLICY_VERSION } from '@emolens/contracts';
import { expect, type Page, test } from '@playwright/test';
import { CONTRACT_CONTROL_URL, PROLIFIC_TOKEN } from '../playwright.config.ts';
import { cabinetApi, createProject, login, shot } from './support.ts';

/**
 * Prolific through the cabinet (issue 33, item 2), against the Prolific contract server contract-servers.ts runs for
 * the e2e app: a token refused and one linked on Cabinet → Prolific, a research's study made and published, two
 * participants playing Prolific's side (one came through the link with PROLIFIC_PID, STUDY_ID and SESSION_ID and
 * left without finishing, one never came), and their submissions decided in the cabinet and sent to Prolific.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(ROOT, '.tmp/shots-prolific');
const LOCALES = resolve(ROOT, 'apps/web/src/i18n/locales');

function text(path: string, lang = 'en', ns = 'integrations'): string {
  let node: unknown = JSON.parse(readFileSync(resolve(LOCALES, `${lang}/${ns}.json`), 'utf8'));
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'string') throw new Error(`no ${lang}/${ns}:${path}`);
  return node;
}

/** A call to the contract servers' control port. */
async function control<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${CONTRACT_CONTROL_URL}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

type ProlificSide = {
  studies: { id: string; status: string; reward: number; total_available_places: number; external_study_url: string }[];
  submissions: {
    id: string;
    status: string;
    return_requested: string | null;
    rejection: { rejection_category: string } | null;
  }[];
};

/** A launched Prolific project holding one contentless research `title` and a quota link of `quota`. */
async function prolificResearch(page: Page, title: string, quota: number): Promise<string> {
  const projectId = await createProject(page, `${title} host`, { platform: 'prolific' });
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    {
      project_id: projectId,
      campaigns_data: [{ title, content_type: 'contentless' }],
    },
  );
  const researchId = created.campaigns[0]?.id ?? '';
  const scenario = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${projectId}/scenarios/`, {
    campaign_ids: [researchId],
  });
  await cabinetApi(page, 'POST', `/cabinet/scenarios/${scenario.id}/project-accessor-links/`, {
    quota_size: quota,
    is_use_face_checker: false,
  });
  await cabinetApi(page, 'POST', `/cabinet/projects/${projectId}/launch/`, {});
  return researchId;
}

async function confirm(page: Page) {
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('confirm-action')).toBeHidden();
}

test.use({ actionTimeout: 15_000, viewport: { width: 1280, height: 900 } });

test('Prolific: a token linked, a study made and published, submissions decided', async ({ page }) => {
  // A long journey: two tokens checked, a study made and published, two participants, a review, two languages.
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  await login(page);
  const title = `Prolific research ${suffix}`;
  const researchId = await prolificResearch(page, title, 7);
  const description = `E2E lab ${suffix}`;

  await test.step('a token Prolific refuses is not linked; one it accepts is', async () => {
    await page.goto('/cabinet/prolific?curr_lang=en');
    await expect(page.getByTestId('recruiting-token-environment')).toHaveCount(0);
    await page.getByTestId('recruiting-token-description').fill(description);
    await page.getByTestId('recruiting-token-secret').fill('not-a-prolific-token');
    await page.getByTestId('recruiting-token-link').click();
    await expect(page.getByText(text('oauth.prolificRejected', 'en', 'messages')).first()).toBeVisible();
    await expect(page.getByTestId('recruiting-token-row').filter({ hasText: description })).toHaveCount(0);
    await page.getByTestId('recruiting-token-secret').fill(PROLIFIC_TOKEN);
    await page.getByTestId('recruiting-token-link').click();
    const row = page.getByTestId('recruiting-token-row').filter({ hasText: description });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('token-active')).toBeVisible();
    await expect(row).toContainText(`••••${PROLIFIC_TOKEN.slice(-4)}`);
    await shot(page, SHOTS, '01-prolific-token-en');
  });

  const status = page.getByTestId('study-status');
  let studyId = '';

  await test.step('the research’s study: made as a draft, then published', async () => {
    await page.goto(`/cabinet/campaign/${researchId}?curr_lang=en`);
    await page.getByTestId('campaign-prolific').click();
    await expect(page).toHaveURL(new RegExp(`/cabinet/campaign/${researchId}/prolific`));
    await expect(page.getByTestId('study-summary')).toContainText(text('study.none'));
    const form = page.getByTestId('study-create');
    await expect(form.getByLabel(text('study.taskTitle'))).toHaveValue(title);
    await expect(form.getByLabel(text('study.places'))).toHaveValue('7');
    await form.getByLabel(text('study.reward')).fill('1.50');
    await shot(page, SHOTS, '02-prolific-study-form-en');
    await page.getByTestId('study-submit').click();
    await expect(status).toHaveText(text('study.statuses.UNPUBLISHED'));
    await expect(form).toHaveCount(0);
    await page.getByTestId('study-publish').click();
    await expect(page.getByText(text('study.publishText'))).toBeVisible();
    await confirm(page);
    await expect(status).toHaveText(text('study.statuses.ACTIVE'));
    await expect(page.getByTestId('study-pause')).toBeEnabled();
    const side = await control<ProlificSide>('/prolific/state');
    const study = side.studies.find(
      (s) =>
        s.external_study_url.includes('PROLIFIC_PID={{%PROLIFIC_PID%}}') &&
        s.status === 'ACTIVE' &&
        s.total_available_places === 7,
    );
    expect(study).toMatchObject({ reward: 150 });
    studyId = study?.id ?? '';
    await shot(page, SHOTS, '03-prolific-study-active-en');
  });

  await test.step('participants: one came through the link and left, one never came', async () => {
    const left = await control<{ submission_id: string; url: string }>('/prolific/participants', {
      study_id: studyId,
      participant_id: `pid-left-${suffix}`,
    });
    const opened = new URL(left.url);
    const token = opened.pathname.split('/').pop() ?? '';
    const started = await page.request.post(`/r/links/${token}/sessions`, {
      data: {
        consent: { accepted: true, policy_version: CONSENT_POLICY_VERSION, language: 'en', panel_consent: true },
        panel: Object.fromEntries(opened.searchParams),
        screen: { width: 1280, height: 800, device_pixel_ratio: 1 },
      },
    });
    expect(started.status()).toBe(201);
    // Submitted on Prolific without a code (the participant gave up).
    await control('/prolific/submissions', { submission_id: left.submission_id, code: '' });
    const stranger = await control<{ submission_id: string }>('/prolific/participants', {
      study_id: studyId,
      participant_id: `pid-stranger-${suffix}`,
    });
    await control('/prolific/submissions', { submission_id: stranger.submission_id, code: 'GUESSED1' });

    await page.reload();
    await page.getByTestId('acceptance-review').click();
    await expect(page.getByTestId('acceptance-reviewed')).toBeVisible();
    const table = page.getByTestId('acceptance-table');
    await expect(table.getByText(text('acceptance.decisions.return'))).toBeVisible();
    await expect(table.getByText(text('acceptance.decisions.reject'))).toBeVisible();
    await expect(table.getByText(text('acceptance.reasons.session_missing'))).toBeVisible();
    await page.getByTestId('acceptance-confirm').click();
    await expect(page.getByText(text('acceptance.confirmText_prolific'))).toBeVisible();
    await confirm(page);
    await expect(page.getByTestId('acceptance-counts')).toContainText(`${text('acceptance.counts.sent')}: 2`);
    const side = await control<ProlificSide>('/prolific/state');
    expect(side.submissions.find((s) => s.id === stranger.submission_id)).toMatchObject({
      status: 'REJECTED',
      rejection: { rejection_category: 'NO_CODE' },
    });
    expect(side.submissions.find((s) => s.id === left.submission_id)).toMatchObject({
      status: 'AWAITING REVIEW',
      return_requested: expect.any(String),
    });
    await page.getByTestId('acceptance').scrollIntoViewIfNeeded();
    await shot(page, SHOTS, '04-prolific-decisions-en');
  });

  await test.step('in Russian on a phone: the study and its decisions', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/cabinet/campaign/${researchId}/prolific?curr_lang=ru`);
    await expect(status).toHaveText(text('study.statuses.ACTIVE', 'ru'));
    await expect(page.getByTestId('study-stop')).toHaveText(text('study.stop', 'ru'));
    await shot(page, SHOTS, '05-prolific-study-ru-390');
    await page.getByTestId('acceptance-cards').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('acceptance-cards')).toContainText(text('acceptance.decisions.return', 'ru'));
    await shot(page, SHOTS, '06-prolific-decisions-ru-390');
  });
});
