import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { createProject, login, shot } from './support.ts';

const SHOTS = resolve(import.meta.dirname, '../../.tmp/shots-wizard-research');

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function next(page: Page) {
  await page.getByRole('button', { name: 'Next', exact: true }).click();
}

test('a project with a shelf research is created through the wizard', async ({ page }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const projectTitle = `Shelf wizard ${suffix}`;
  const research = `Cereal shelf ${suffix}`;
  await login(page);

  await page.goto('/cabinet/projects/add');
  await page.getByTestId('flow-type-new').click();
  await next(page);
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(projectTitle);
  await next(page);
  await pick(page, 'Platform', 'Toloka');
  await pick(page, 'Respondent language', 'English');
  await pick(page, 'Audience type', 'Simple (sex, age, geography)');
  await next(page);

  await test.step('the research step offers every content type the user may make, shelf included', async () => {
    const step = page.getByTestId('wizard-step-research');
    await expect(step).toBeVisible();
    for (const type of ['none', 'video', 'pictures', 'site', 'shelf', 'contentless']) {
      await expect(step.getByTestId(`wizard-research-${type}`)).toBeVisible();
    }
    await expect(step.getByRole('radio', { name: /Not now/ })).toBeChecked();
    await step.getByRole('radio', { name: /Shelf/ }).click();
    await expect(step.getByRole('radio', { name: /Shelf/ })).toBeChecked();
    // The name is required once a research is chosen.
    await next(page);
    await expect(step.getByText("This is a required field. Don't leave it empty")).toBeVisible();
    await step.getByTestId('wizard-research-title').fill(research);
    await shot(page, SHOTS, 'wizard-research-en');
    await next(page);
  });

  await test.step('the review names the research; creating opens it', async () => {
    await expect(page.getByTestId('wizard-review-research')).toContainText('Shelf');
    await expect(page.getByTestId('wizard-review-research')).toContainText(research);
    await page.getByTestId('wizard-submit').click();
    await expect(page).toHaveURL(/\/cabinet\/campaign\/[0-9a-f-]{36}\/form$/);
    await expect(page.getByTestId('campaign-heading')).toHaveText(research);
    await expect(page.getByText('Add its shelves with images in the Content section below.')).toBeVisible();
    await expect(page.getByTestId('campaign-content-type-fixed')).toHaveValue('Shelf');
    // The tasks are in the project's respondent language.
    await expect(page.getByTestId('setting-currentTaskLang')).toHaveValue('English');
    // video_count counts respondents' recordings, not uploaded videos.
    await expect(page.getByTestId('campaign-recordings')).toContainText('Respondent recordings');
    await expect(page.getByTestId('campaign-details')).not.toContainText('Videos');
    await expect(page.getByTestId('shelf-editor')).toBeVisible();
  });

  await test.step('the project holds the research', async () => {
    await page.getByRole('link', { name: projectTitle }).first().click();
    await expect(page.getByTestId('project-title')).toHaveText(projectTitle);
    await expect(page.getByTestId('count-researches')).toContainText('1');
  });
});

test('a new research takes its project’s respondent language for its tasks', async ({ page }) => {
  await login(page);
  // An English project (support.ts): the contract's own default would be Russian.
  const projectId = await createProject(page, `Language host ${Date.now().toString(36)}`);
  await page.goto(`/cabinet/campaign/new/form?project=${projectId}&isCreateNewFlow=true`);
  await expect(page.getByTestId('campaign-project')).not.toHaveValue('');
  await expect(page.getByTestId('setting-currentTaskLang')).toHaveValue('English');
});

test('notices of failed saves close when the save succeeds', async ({ page }) => {
  await login(page);
  const projectId = await createProject(page, `Notice host ${Date.now().toString(36)}`);
  await page.goto(`/cabinet/campaign/new/form?project=${projectId}&isCreateNewFlow=true`);
  await expect(page.getByTestId('campaign-project')).not.toHaveValue('');
  const invalid = page.locator('.mantine-Notification-root').filter({ hasText: 'Fill in the required fields' });
  await page.getByTestId('campaign-save').click();
  await page.getByTestId('campaign-save').click();
  // Two failed attempts leave one notice, not two.
  await expect(invalid).toHaveCount(1);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Noticed ${Date.now().toString(36)}`);
  await page.getByRole('combobox', { name: 'Content type', exact: true }).click();
  await page.getByRole('option', { name: 'Video', exact: true }).click();
  await page.getByTestId('campaign-save').click();
  await expect(page).toHaveURL(/\/cabinet\/campaign\/[0-9a-f-]{36}\/form$/);
  await expect(page.getByText('Upload its video in the Content section below.')).toBeVisible();
  await expect(invalid).toHaveCount(0);
});
