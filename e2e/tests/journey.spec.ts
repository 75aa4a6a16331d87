import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { astronautVideo, login, pointerDrag, shot } from './support.ts';

const FILES = resolve(import.meta.dirname, '../../.tmp/journey-e2e');

test.use({
  viewport: { width: 1440, height: 900 },
  actionTimeout: 15_000,
  permissions: ['clipboard-read', 'clipboard-write'],
});

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The scenarios panel at the top of the window, below the header. */
async function showScenarios(page: Page) {
  await page.getByTestId('scenarios-panel').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => window.scrollBy(0, -72));
}

async function addScenario(page: Page, description: string, research: string) {
  await page.getByTestId('scenario-add').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('New scenario');
  await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill(description);
  await dialog.getByRole('combobox', { name: 'Researches', exact: true }).click();
  await page.getByRole('option', { name: research, exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Description', exact: true }).click();
  await dialog.getByTestId('scenario-submit').click();
  await expect(dialog).toBeHidden();
}

/** Drags `source` by the pointer, in small steps as a hand would, until its middle is over `target`'s middle. */

test('a user journey: wizard project, video research with an upload, scenarios dragged into order, a quota link, launch', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const video = astronautVideo(FILES);
  const suffix = Date.now().toString(36);
  const projectTitle = `Journey ${suffix}`;
  const research = `Astronaut spot ${suffix}`;
  await login(page);

  await test.step('the wizard creates a draft project', async () => {
    await page.getByRole('link', { name: 'Create via wizard' }).first().click();
    await expect(page).toHaveURL(/\/cabinet\/projects\/add$/);
    await expect(page.getByTestId('flow-type-warning')).toHaveText(
      'The flow type cannot be changed after the project is created.',
    );
    await page.getByTestId('flow-type-new').click();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill(projectTitle);
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('The e2e user journey');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await pick(page, 'Platform', 'Toloka');
    await pick(page, 'Respondent language', 'English');
    await pick(page, 'Audience type', 'Simple (sex, age, geography)');
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    // No research yet: it is added from the researches list below.
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByTestId('wizard-review')).toContainText(projectTitle);
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect(page).toHaveURL(/\/cabinet\/projects\/[^/]+$/);
    await expect(page.getByTestId('project-title')).toHaveText(projectTitle);
    await expect(page.getByTestId('project-status')).toHaveText('Draft');
    await expect(page.getByTestId('project-flow-type')).toHaveText('New flow · 34 s calibration');
    await shot(page, testInfo.outputPath(), '01-project-created');
  });
  const projectUrl = page.url();

  await test.step('a video research is added to the project and its video uploaded and probed', async () => {
    await page.getByRole('link', { name: 'Researches', exact: true }).click();
    await page.getByTestId('create-campaign').click();
    const dialog = page.getByRole('dialog');
    await pick(page, 'Draft project', projectTitle);
    await dialog.getByTestId('choose-project-continue').click();
    // The form's field (the researches list behind it, while it goes, names projects with the same test id).
    await expect(page.locator('input[data-testid="campaign-project"]')).toHaveValue(projectTitle);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(research);
    await pick(page, 'Content type', 'Video');
    await page.getByTestId('campaign-save').click();
    await expect(page).toHaveURL(/\/cabinet\/campaign\/[0-9a-f-]{36}\/form$/);
    await expect(page.getByTestId('campaign-heading')).toHaveText(research);

    await page.getByTestId('media-input').setInputFiles(video);
    const item = page.getByTestId('media-section').getByTestId('media-item');
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId('media-name')).toHaveText('astronaut.webm');
    await expect(item.getByTestId('media-status')).toHaveText('Ready', { timeout: 30_000 });
    await expect(item).toHaveAttribute('data-status', 'ready');
    await expect(item.getByTestId('media-meta')).toContainText('320×');
    await expect(item.getByTestId('media-poster')).toBeVisible();
    await item.scrollIntoViewIfNeeded();
    await shot(page, testInfo.outputPath(), '02-research-video-ready');

    await page.getByRole('link', { name: projectTitle, exact: true }).click();
    await expect(page).toHaveURL(projectUrl);
    await expect(page.getByTestId('count-researches')).toContainText('1');
  });

  const panel = page.getByTestId('scenarios-panel');
  const rows = panel.getByTestId('scenario-row');

  await test.step('two scenarios use the research', async () => {
    await expect(panel).toContainText('No scenarios yet');
    await addScenario(page, 'Women 25–34', research);
    await addScenario(page, 'Men 25–34', research);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Women 25–34');
    await expect(rows.nth(1)).toContainText('Men 25–34');
    for (const row of await rows.all())
      await expect(row.getByTestId('scenario-researches')).toHaveText(`1. ${research}`);
    await showScenarios(page);
    await shot(page, testInfo.outputPath(), '03-two-scenarios');
    // Besides dragging, each row's order menu moves it without a pointer drag.
    await rows.nth(1).getByTestId('scenario-order-menu').click();
    await expect(page.getByTestId('scenario-move-up')).toBeEnabled();
    await expect(page.getByTestId('scenario-move-down')).toBeDisabled();
    await shot(page, testInfo.outputPath(), '03-order-menu');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('scenario-move-up')).toBeHidden();
  });

  await test.step('dragging the second scenario by its handle above the first reorders them, and it is saved', async () => {
    const saved = page.waitForResponse(
      (r) => r.url().includes('/scenarios/reorder/') && r.request().method() === 'POST',
    );
    await pointerDrag(page, rows.nth(1).getByTestId('scenario-drag-handle'), rows.nth(0), async () => {
      // Mid-drag: the row follows the pointer, lifted above the other.
      await expect(panel.locator('[data-dragging]')).toContainText('Men 25–34');
      await shot(page, testInfo.outputPath(), '04-dragging', { closeNotifications: false });
    });
    await expect(rows.nth(0)).toContainText('Men 25–34');
    await expect(rows.nth(0).getByTestId('scenario-number')).toHaveText('1');
    await expect(rows.nth(1)).toContainText('Women 25–34');
    await expect(rows.nth(1).getByTestId('scenario-number')).toHaveText('2');
    expect((await saved).ok()).toBe(true);
    await expect(panel.locator('[data-dragging]')).toHaveCount(0);

    await page.reload();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Men 25–34');
    await expect(rows.nth(1)).toContainText('Women 25–34');
    await showScenarios(page);
    await shot(page, testInfo.outputPath(), '05-reordered-after-reload');
  });

  await test.step('a quota link for the first scenario gives a respondent link that copies', async () => {
    const links = page.getByTestId('quota-links-panel');
    await links.getByTestId('link-create').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('New quota link');
    await pick(page, 'Scenario', 'Scenario 1: Men 25–34');
    await dialog.getByRole('textbox', { name: 'Quota size', exact: true }).fill('200');
    await dialog.getByTestId('link-submit').click();
    await expect(dialog).toBeHidden();
    const row = links.getByTestId('link-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Scenario 1: Men 25–34');
    await expect(row.getByRole('textbox', { name: 'Quota size', exact: true })).toHaveValue('200');
    const origin = new URL(page.url()).origin;
    const url = row.getByTestId('link-url');
    await expect(url).toHaveText(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/project-research/[\\w-]+$`));
    await expect(url).toHaveAttribute('href', (await url.textContent()) ?? '');
    await row.getByTestId('link-copy').click();
    await expect(page.getByRole('tooltip')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await url.textContent());
    await expect(page.getByTestId('count-quota-links')).toContainText('1');
    await links.scrollIntoViewIfNeeded();
    await shot(page, testInfo.outputPath(), '06-quota-link');
  });

  await test.step('launch: the project is active and its scenarios are frozen', async () => {
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(/freezes the project's researches and scenarios/);
    await dialog.getByTestId('confirm-action').click();
    await expect(page.getByTestId('project-status')).toHaveText('Active');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, testInfo.outputPath(), '07-launched');
    await expect(panel.getByTestId('scenarios-read-only')).toContainText('only while the project is a draft');
    await expect(panel.getByTestId('scenario-add')).toHaveCount(0);
    await expect(panel.getByTestId('scenario-drag-handle')).toHaveCount(0);
    await expect(panel.getByTestId('scenario-order-menu')).toHaveCount(0);
    await expect(panel.getByTestId('scenario-edit')).toHaveCount(0);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Men 25–34');

    await page.reload();
    await expect(page.getByTestId('project-status')).toHaveText('Active');
    await expect(panel.getByTestId('scenarios-read-only')).toBeVisible();
    await expect(panel.getByTestId('scenario-drag-handle')).toHaveCount(0);
    await showScenarios(page);
    await shot(page, testInfo.outputPath(), '08-launched-frozen');
  });
});
