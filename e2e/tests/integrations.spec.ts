import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { BASE_URL, CONTRACT_CONTROL_URL, TOLOKA_BALANCE, TOLOKA_TOKEN } from '../playwright.config.ts';
import { cabinetApi, createProject, login, shot } from './support.ts';

/**
 * The cabinet's integrations through the UI: a personal API token made on API access, used from the test with
 * fetch and refused once revoked; a Toloka token linked on Cabinet → Toloka (checked with the Toloka contract
 * server that contract-servers.ts runs for the e2e app), then a research's Toloka pool made, run and stopped.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(ROOT, '.tmp/shots-integrations');
const LOCALES = resolve(ROOT, 'apps/web/src/i18n/locales');

/** A text of the `ns` namespace (integrations by default) in `lang`, by its dotted key. */
function text(path: string, lang = 'en', ns = 'integrations'): string {
  let node: unknown = JSON.parse(readFileSync(resolve(LOCALES, `${lang}/${ns}.json`), 'utf8'));
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'string') throw new Error(`no ${lang}/${ns}:${path}`);
  return node;
}

/** The report builder's research list, called from outside the browser as a script would, with `token` if any. */
function listResearches(token: string | null, search: string) {
  return fetch(`${BASE_URL}/report_builder/api/campaigns/?search=${encodeURIComponent(search)}`, {
    headers: token ? { Authorization: `Token ${token}` } : {},
  });
}

type TolokaSide = {
  balance: number;
  pools: { id: string; status: string; last_close_reason: string | null; reward_per_assignment: number }[];
  tasks: { pool_id: string; input_values: Record<string, unknown> }[];
};

/** What the Toloka contract server holds now. */
async function tolokaSide(): Promise<TolokaSide> {
  const response = await fetch(`${CONTRACT_CONTROL_URL}/toloka/state`);
  expect(response.status).toBe(200);
  return (await response.json()) as TolokaSide;
}

/** The research's pool as Toloka (the contract server) holds it, with its tasks. */
async function tolokaPool(page: Page, researchId: string) {
  const { pool } = await cabinetApi<{ pool: { pool_id: string } | null }>(
    page,
    'GET',
    `/cabinet/campaigns/${researchId}/toloka/`,
  );
  const side = await tolokaSide();
  return {
    pool: side.pools.find((p) => p.id === pool?.pool_id),
    tasks: side.tasks.filter((t) => t.pool_id === pool?.pool_id),
    balance: side.balance,
  };
}

/**
 * A Toloka project (through the cabinet API) holding one contentless research `title`, one scenario and a quota
 * link of `quota`, launched unless `launch` is false. The research's id.
 */
async function tolokaResearch(page: Page, title: string, { quota = 5, launch = true } = {}): Promise<string> {
  const projectId = await createProject(page, `${title} host`);
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    { project_id: projectId, campaigns_data: [{ title, content_type: 'contentless' }] },
  );
  const researchId = created.campaigns[0]?.id ?? '';
  const scenario = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${projectId}/scenarios/`, {
    campaign_ids: [researchId],
  });
  await cabinetApi(page, 'POST', `/cabinet/scenarios/${scenario.id}/project-accessor-links/`, {
    quota_size: quota,
    is_use_face_checker: false,
  });
  if (launch) await cabinetApi(page, 'POST', `/cabinet/projects/${projectId}/launch/`, {});
  return researchId;
}

/** Presses the confirm button of the open confirmation dialog. */
async function confirm(page: Page) {
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('confirm-action')).toBeHidden();
}

test.use({ actionTimeout: 15_000, viewport: { width: 1280, height: 900 } });

test('an API token: made in the cabinet, used with fetch, refused once revoked', async ({ page }) => {
  const suffix = Date.now().toString(36);
  await login(page);
  const title = `API research ${suffix}`;
  const researchId = await tolokaResearch(page, title, { launch: false });
  const description = `Weekly dashboard ${suffix}`;
  let token = '';

  await test.step('the token is made and shown once', async () => {
    await page.goto('/cabinet/api-access?curr_lang=en');
    await expect(page.getByRole('heading', { name: text('api.title') })).toBeVisible();
    await page.getByTestId('token-description').fill(description);
    await page.getByTestId('token-create').click();
    const value = page.getByTestId('token-shown-value');
    await expect(value).toHaveText(/^emo_\S{16,}$/);
    await expect(page.getByText(text('api.shownOnce'))).toBeVisible();
    token = (await value.textContent())?.trim() ?? '';
    await shot(page, SHOTS, '01-api-token-shown-en');
    await page.getByTestId('token-shown-close').click();
    await expect(value).toBeHidden();
    const row = page.getByTestId('token-row').filter({ hasText: description });
    await expect(row).toBeVisible();
    // The list shows only the token's prefix, never the token.
    await expect(row).toContainText(token.slice(0, 8));
    await expect(page.getByText(token)).toHaveCount(0);
    await expect(row).toContainText(text('api.never'));
  });

  await test.step('fetch with the token lists the user’s research; without one it is refused', async () => {
    const listed = await listResearches(token, title);
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { items: { id: string; title: string }[]; total: number };
    expect(body).toMatchObject({ total: 1, page: 1 });
    expect(body.items).toEqual([expect.objectContaining({ id: researchId, title, content_type: 'contentless' })]);
    expect((await listResearches(null, title)).status).toBe(401);
    expect((await listResearches(`${token}x`, title)).status).toBe(401);
  });

  await test.step('the list shows the token used; revoked, it is refused', async () => {
    await page.reload();
    const row = page.getByTestId('token-row').filter({ hasText: description });
    await expect(row).toBeVisible();
    await expect(row).not.toContainText(text('api.never'));
    await shot(page, SHOTS, '02-api-token-used-en');
    await row.getByTestId('token-revoke').click();
    await expect(page.getByText(text('api.revokeText').replace('{{name}}', description))).toBeVisible();
    await confirm(page);
    await expect(page.getByText(text('api.revoked'))).toBeVisible();
    await expect(row).toHaveCount(0);
    const refused = await listResearches(token, title);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ key: 'token.invalid' });
  });
});

test('Toloka: a token linked, the research’s pool made, run and stopped on the contract server', async ({ page }) => {
  const suffix = Date.now().toString(36);
  await login(page);
  const title = `Toloka research ${suffix}`;
  const researchId = await tolokaResearch(page, title, { quota: 5 });
  const description = `E2E requester ${suffix}`;

  await test.step('the token is checked with Toloka, linked and active', async () => {
    await page.goto('/cabinet/toloka?curr_lang=en');
    // Refused without a description, before Toloka is asked.
    await page.getByTestId('recruiting-token-secret').fill(TOLOKA_TOKEN);
    await page.getByTestId('recruiting-token-link').click();
    await expect(page.getByTestId('recruiting-token-description')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(text('oauth.descriptionRequired', 'en', 'messages'))).toBeVisible();
    await expect(page.getByTestId('recruiting-token-row')).toHaveCount(0);
    await page.getByTestId('recruiting-token-description').fill(description);
    await expect(page.getByTestId('recruiting-token-description')).not.toHaveAttribute('aria-invalid', 'true');
    await page
      .getByTestId('recruiting-token-environment')
      .getByText(text('tokens.environments.sandbox'), { exact: true })
      .click();
    await page.getByTestId('recruiting-token-link').click();
    const row = page.getByTestId('recruiting-token-row').filter({ hasText: description });
    await expect(row).toBeVisible();
    await expect(page.getByText(text('tokens.linkedActive'))).toBeVisible();
    await expect(row.getByTestId('token-active')).toBeVisible();
    await expect(row).toContainText(text('tokens.environments.sandbox'));
    // The secret is never shown: only its last characters.
    await expect(row).toContainText(`••••${TOLOKA_TOKEN.slice(-4)}`);
    await expect(page.getByText(TOLOKA_TOKEN)).toHaveCount(0);
    await expect(page.getByTestId('recruiting-token-secret')).toHaveValue('');
    await shot(page, SHOTS, '03-toloka-token-linked-en');
  });

  const summary = page.getByTestId('pool-summary');
  const status = page.getByTestId('pool-status');

  await test.step('the research’s Toloka page: the form prefilled, the pool made stopped', async () => {
    await page.goto(`/cabinet/campaign/${researchId}?curr_lang=en`);
    await page.getByTestId('campaign-toloka').click();
    await expect(page).toHaveURL(new RegExp(`/cabinet/campaign/${researchId}/toloka`));
    await expect(summary).toContainText(text('pool.none'));
    await expect(summary).toContainText('$1,000.00');
    await expect(summary).toContainText(`${description} · ${text('pool.env.sandbox')}`);
    await expect(summary).toContainText(`${BASE_URL}/project-research/`);
    const quotaLink = (await summary.getByText(`${BASE_URL}/project-research/`).textContent())?.trim();
    expect(quotaLink).toMatch(/\/project-research\/[\w-]+$/);
    await expect(page.getByTestId('pool-problems')).toHaveCount(0);
    const form = page.getByTestId('pool-create');
    await expect(form.getByLabel(text('pool.taskTitle'))).toHaveValue(title);
    await expect(form.getByLabel(text('pool.overlap'))).toHaveValue('5');
    await form.getByLabel(text('pool.reward')).fill('0.5');
    await form.getByLabel(text('pool.instruction')).fill('Open the link, watch to the end, type the code.');
    await shot(page, SHOTS, '04-toloka-pool-form-en');
    await page.getByTestId('pool-submit').click();
    await expect(status).toHaveText(text('pool.statuses.CLOSED'));
    await expect(form).toHaveCount(0);
    await expect(summary).toContainText('$0.50');
    // 5 × $0.50 plus the assumed 30 % fee.
    await expect(summary).toContainText('$3.25');
    await expect(page.getByTestId('pool-open')).toBeEnabled();
    await expect(page.getByTestId('pool-close')).toBeDisabled();
    // Toloka holds the pool, closed, with one task: the research's quota link.
    const toloka = await tolokaPool(page, researchId);
    expect(toloka.pool).toMatchObject({ status: 'CLOSED', reward_per_assignment: 0.5 });
    expect(toloka.tasks).toHaveLength(1);
    expect(Object.values(toloka.tasks[0]?.input_values ?? {})).toContain(quotaLink);
    await shot(page, SHOTS, '05-toloka-pool-made-en');
  });

  await test.step('run: Toloka opens the pool', async () => {
    await page.getByTestId('pool-open').click();
    await expect(page.getByText(text('pool.openText'))).toBeVisible();
    await confirm(page);
    await expect(status).toHaveText(text('pool.statuses.OPEN'));
    await expect(page.getByTestId('pool-close')).toBeEnabled();
    await expect(page.getByTestId('pool-open')).toBeDisabled();
    expect((await tolokaPool(page, researchId)).pool?.status).toBe('OPEN');
    await expect(page.getByTestId('acceptance')).toBeVisible();
    await shot(page, SHOTS, '06-toloka-pool-running-en');
  });

  await test.step('stop: Toloka closes the pool by hand', async () => {
    await page.getByTestId('pool-close').click();
    await expect(page.getByText(text('pool.closeText'))).toBeVisible();
    await confirm(page);
    await expect(status).toHaveText(text('pool.statuses.CLOSED'));
    await expect(summary).toContainText(text('pool.reasons.MANUAL'));
    await expect(page.getByTestId('pool-open')).toBeEnabled();
    const toloka = await tolokaPool(page, researchId);
    expect(toloka.pool).toMatchObject({ status: 'CLOSED', last_close_reason: 'MANUAL' });
    // Nothing was charged: nobody took the task.
    expect(toloka.balance).toBe(TOLOKA_BALANCE);
    await shot(page, SHOTS, '07-toloka-pool-stopped-en');
  });

  await test.step('in Russian on a phone: the pool and the token', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/cabinet/campaign/${researchId}/toloka?curr_lang=ru`);
    await expect(status).toHaveText(text('pool.statuses.CLOSED', 'ru'));
    await expect(summary).toContainText(text('pool.reasons.MANUAL', 'ru'));
    await expect(page.getByTestId('pool-open')).toHaveText(text('pool.open', 'ru'));
    await shot(page, SHOTS, '08-toloka-pool-ru-390');
    await page.goto('/cabinet/toloka?curr_lang=ru');
    const card = page.getByTestId('recruiting-token-card').filter({ hasText: description });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('token-active')).toHaveText(text('tokens.active', 'ru'));
    await card.scrollIntoViewIfNeeded();
    await shot(page, SHOTS, '09-toloka-token-ru-390');
  });
});
