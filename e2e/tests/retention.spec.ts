import { expect, type Locator, type Page, test } from '@playwright/test';
import { launchedProject, login, shot } from './support.ts';

const SHOTS = process.env.RET_SHOTS ?? '/work/shots';
const CONSENT_POLICY_VERSION = '2026-11-23';

/** The section alone: the sticky header would otherwise cover part of a tall element's shot. */
async function sectionShot(page: Page, panel: Locator, name: string): Promise<void> {
  await page.addStyleTag({ content: '.mantine-AppShell-header { display: none !important; }' });
  await shot(page, SHOTS, name, { target: panel });
  await page.addStyleTag({ content: '.mantine-AppShell-header { display: flex !important; }' });
}

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

/** A respondent who gave consent through /r (the session exists from then on). */
async function startRespondent(page: Page, token: string, participant: string): Promise<void> {
  const started = await page.request.post(`/r/links/${token}/sessions`, {
    data: {
      consent: { accepted: true, policy_version: CONSENT_POLICY_VERSION, language: 'en' },
      panel: { participant_id: participant },
      screen: { width: 1440, height: 900, device_pixel_ratio: 1 },
    },
  });
  expect(started.status(), await started.text()).toBe(201);
}

test('retention is set on the project page and a respondent’s data is deleted on request', async ({ page }) => {
  test.setTimeout(120_000);
  await login(page);
  const { projectId, token } = await launchedProject(page, `Retention ${Date.now()}`);
  await startRespondent(page, token, 'worker-1');
  await startRespondent(page, token, 'worker-1');
  await startRespondent(page, token, 'worker-2');

  await page.goto(`/cabinet/projects/${projectId}`);
  const panel = page.getByTestId('data-protection-panel');
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.getByTestId('retention-keep')).toBeChecked();

  // Delete after N days: the days field appears and is required.
  await panel.getByTestId('retention-delete_after_days').check();
  await panel.getByTestId('retention-days').fill('');
  await panel.getByTestId('retention-save').click();
  await expect(panel.getByText("This is a required field. Don't leave it empty")).toBeVisible();
  // More than allowed is held to the limit by the input itself.
  await panel.getByTestId('retention-days').fill('4000');
  await panel.getByTestId('retention-days').blur();
  await expect(panel.getByTestId('retention-days')).toHaveValue('3650');
  await panel.getByTestId('retention-days').fill('90');
  await panel.getByTestId('retention-save').click();
  await expect(page.locator('.mantine-Notification-root').getByText('Retention setting saved')).toBeVisible();
  await page.reload();
  await expect(panel.getByTestId('retention-delete_after_days')).toBeChecked();
  await expect(panel.getByTestId('retention-days')).toHaveValue('90');

  // Nobody by that id: said under the field, nothing deleted.
  await panel.getByTestId('delete-identifier').fill('nobody');
  await panel.getByTestId('delete-respondent-data').click();
  await page.getByTestId('confirm-action').click();
  await expect(panel.getByText('No respondent sessions of this project match this identifier')).toBeVisible();

  // The participant's two sessions go; the confirm dialog names what is deleted.
  await panel.getByTestId('delete-identifier').fill('worker-1');
  await panel.getByTestId('delete-respondent-data').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('worker-1')).toBeVisible();
  await shot(page, SHOTS, 'ret-confirm-en-1440', { target: dialog });
  await page.getByTestId('confirm-action').click();
  await expect(page.locator('.mantine-Notification-root').getByText('Sessions deleted: 2')).toBeVisible();
  await expect(panel.getByTestId('data-deletion')).toHaveCount(1);
  await expect(panel.getByTestId('data-deletion')).toContainText('worker-1');
  await expect(page.getByTestId('count-sessions')).toContainText('1');

  await sectionShot(page, panel, 'ret-en-1440');
  // A phone: loaded afresh at its width, as a phone would.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(panel.getByTestId('data-deletion')).toHaveCount(1);
  await panel.scrollIntoViewIfNeeded();
  await sectionShot(page, panel, 'ret-en-390');

  await page.goto(`/cabinet/projects/${projectId}?curr_lang=ru`);
  await expect(panel.getByText('Данные респондентов')).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await sectionShot(page, panel, 'ret-ru-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await panel.scrollIntoViewIfNeeded();
  await sectionShot(page, panel, 'ret-ru-1440');
  // Back to English for the other tests of this run.
  await page.goto(`/cabinet/projects/${projectId}?curr_lang=en`);
});
