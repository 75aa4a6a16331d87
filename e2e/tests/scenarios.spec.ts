import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { cabinetApi, createProject, login, shot } from './support.ts';

const SHOTS = resolve(import.meta.dirname, '../../.tmp/shots-scenarios');

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

async function addScenario(page: Page, description: string, researches: string[]) {
  await page.getByTestId('scenario-add').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('New scenario');
  await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill(description);
  for (const title of researches) {
    await dialog.getByRole('combobox', { name: 'Researches', exact: true }).click();
    await page.getByRole('option', { name: title, exact: true }).click();
  }
  await dialog.getByRole('textbox', { name: 'Description', exact: true }).click();
  await dialog.getByTestId('scenario-submit').click();
  await expect(dialog).toBeHidden();
}

test('scenarios are built, reordered and frozen at launch; a quota link is created and sized', async ({ page }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  await login(page);
  const projectId = await createProject(page, `Scenario host ${suffix}`);
  const spot = `Spot ${suffix}`;
  const banner = `Banner ${suffix}`;
  for (const title of [spot, banner]) {
    await cabinetApi(page, 'POST', '/cabinet/projects/add-new-campaign/', {
      project_id: projectId,
      campaigns_data: [{ title, content_type: 'contentless' }],
    });
  }

  await page.goto(`/cabinet/projects/${projectId}`);
  const panel = page.getByTestId('scenarios-panel');
  await expect(panel).toContainText('No scenarios yet');
  await expect(page.getByTestId('project-contents')).not.toContainText('later version');

  await test.step('two scenarios are built', async () => {
    await addScenario(page, 'Video first', [spot, banner]);
    await addScenario(page, 'Banner only', [banner]);
    const rows = panel.getByTestId('scenario-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Video first');
    await expect(rows.nth(0).getByTestId('scenario-researches')).toHaveText(`1. ${spot}  ·  2. ${banner}`);
    await expect(rows.nth(1)).toContainText('Banner only');
  });

  await test.step('the order menu reorders them (the way without dragging)', async () => {
    const rows = panel.getByTestId('scenario-row');
    await rows.nth(0).getByTestId('scenario-order-menu').click();
    await expect(page.getByTestId('scenario-move-up')).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('scenario-move-up')).toBeHidden();
    await rows.nth(1).getByTestId('scenario-order-menu').click();
    await page.getByTestId('scenario-move-up').click();
    await expect(rows.nth(0)).toContainText('Banner only');
    await expect(rows.nth(0).getByTestId('scenario-number')).toHaveText('1');
    await expect(rows.nth(1)).toContainText('Video first');
    await expect(rows.nth(1).getByTestId('scenario-number')).toHaveText('2');
  });

  await test.step('a quota link is created and its quota size set', async () => {
    const links = page.getByTestId('quota-links-panel');
    await links.getByTestId('link-create').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('New quota link');
    await dialog.getByTestId('link-submit').click();
    await expect(dialog).toBeHidden();
    const row = links.getByTestId('link-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Scenario 1: Banner only');
    const origin = new URL(page.url()).origin;
    await expect(row.getByTestId('link-url')).toHaveText(
      new RegExp(`^${origin.replace(/[.]/g, '\\.')}/project-research/`),
    );
    await expect(row.getByTestId('link-copy')).toBeVisible();

    const quota = row.getByRole('textbox', { name: 'Quota size', exact: true });
    await quota.fill('150');
    await quota.press('Enter');
    await expect(page.getByText('The quota size is saved')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('link-row').getByRole('textbox', { name: 'Quota size', exact: true })).toHaveValue(
      '150',
    );

    // The scenarios at the top of the picture, the quota link below them.
    await panel.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.evaluate(() => window.scrollBy(0, -72));
    await shot(page, SHOTS, 'scenarios-panel');
  });

  await test.step('after launch the scenarios are read-only', async () => {
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    await page.getByRole('dialog').getByTestId('confirm-action').click();
    await expect(page.getByTestId('status-notice')).toBeVisible();
    await expect(panel.getByTestId('scenarios-read-only')).toContainText('only while the project is a draft');
    await expect(panel.getByTestId('scenario-add')).toHaveCount(0);
    await expect(panel.getByTestId('scenario-order-menu')).toHaveCount(0);
    await expect(panel.getByTestId('scenario-drag-handle')).toHaveCount(0);
    await expect(panel.getByTestId('scenario-row')).toHaveCount(2);
    // Quota links stay editable while the project is active.
    await expect(page.getByTestId('link-row').getByTestId('link-face-checker')).toBeEnabled();
  });
});

test('each quota link shows the sessions its fieldwork will use, and why', async ({ page }) => {
  const suffix = Date.now().toString(36);
  await login(page);
  const projectId = await createProject(page, `Estimate ${suffix}`);
  const added = await cabinetApi<{ campaigns: { id: string }[] }>(page, 'POST', '/cabinet/projects/add-new-campaign/', {
    project_id: projectId,
    campaigns_data: [
      { title: `Interview ${suffix}`, content_type: 'contentless' },
      { title: `Spot ${suffix}`, content_type: 'video' },
    ],
  });
  const [interview, spot] = added.campaigns.map((c) => c.id);
  const known = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${projectId}/scenarios/`, {
    description: 'Interview only',
    campaign_ids: [interview],
  });
  const unknown = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${projectId}/scenarios/`, {
    description: 'With a video not uploaded yet',
    campaign_ids: [interview, spot],
  });
  await cabinetApi(page, 'POST', `/cabinet/scenarios/${known.id}/project-accessor-links/`, { quota_size: 50 });
  await cabinetApi(page, 'POST', `/cabinet/scenarios/${unknown.id}/project-accessor-links/`, { quota_size: 20 });

  await page.goto(`/cabinet/projects/${projectId}`);
  const rows = page.getByTestId('link-row');
  await expect(rows).toHaveCount(2);
  // 34 s of calibration: one session per respondent.
  await expect(rows.nth(0).getByTestId('link-estimate')).toHaveText('≈ 50 sessions');
  await expect(rows.nth(1).getByTestId('link-estimate')).toHaveText('≈ 20 sessions');
  await expect(rows.nth(1).getByTestId('link-estimate-unknown')).toBeVisible();
  await expect(rows.nth(0).getByTestId('link-estimate-unknown')).toHaveCount(0);
  await expect(page.getByTestId('estimate-total')).toContainText('≈ 70');

  await rows.nth(0).getByTestId('link-estimate').getByText('≈ 50 sessions').hover();
  await expect(page.getByRole('tooltip')).toContainText('1 per respondent × 50 respondents');

  // A new quota size is estimated again.
  await rows.nth(0).getByTestId('link-quota').fill('120');
  await rows.nth(0).getByTestId('link-quota').press('Enter');
  await expect(rows.nth(0).getByTestId('link-estimate')).toHaveText('≈ 120 sessions');
  await expect(page.getByTestId('estimate-total')).toContainText('≈ 140');
  await shot(page, SHOTS, 'estimate', { target: page.getByTestId('quota-links-panel') });
});

test('a bad redirect link and negative quotas are refused under their fields, as typed', async ({ page }) => {
  test.setTimeout(90_000);
  await login(page);
  const projectId = await createProject(page, `Refusal host ${Date.now().toString(36)}`);
  await page.goto(`/cabinet/projects/${projectId}`);

  await test.step('the scenario form', async () => {
    await page.getByTestId('scenario-add').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Redirect link: complete', exact: true }).fill('ftp://example.com/done');
    const quota = dialog.getByTestId('scenario-quota');
    await quota.fill('-5');
    await dialog.getByTestId('scenario-submit').click();
    await expect(dialog).toContainText('Enter a link starting with http:// or https://');
    await expect(dialog).toContainText('Must be 0 or more');
    await expect(quota).toHaveValue('-5');
    await expect(page.getByText('Something went wrong')).toBeHidden();
    await shot(page, SHOTS, 'scenario-refused', { target: dialog });
    await dialog
      .getByRole('textbox', { name: 'Redirect link: complete', exact: true })
      .fill('https://example.com/done');
    await quota.fill('5');
    await dialog.getByTestId('scenario-submit').click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('scenario-row')).toContainText('Quota 5');
  });

  await test.step('the quota link forms', async () => {
    const links = page.getByTestId('quota-links-panel');
    await links.getByTestId('link-create').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('link-form-quota').fill('-5');
    await dialog.getByTestId('link-submit').click();
    await expect(dialog).toContainText('At least 1');
    await expect(dialog.getByTestId('link-form-quota')).toHaveValue('-5');
    await dialog.getByTestId('link-form-quota').fill('');
    await dialog.getByTestId('link-submit').click();
    await expect(dialog).toBeHidden();

    const row = links.getByTestId('link-row');
    const size = row.getByTestId('link-quota');
    await size.fill('-5');
    await size.press('Enter');
    await expect(row).toContainText('At least 1');
    await expect(size).toHaveValue('-5');
    await expect(page.getByText('The quota size is saved')).toBeHidden();
  });
});
