import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { createProject, login, readyToLaunch, shot } from './support.ts';

const SHOTS = resolve(import.meta.dirname, '../../.tmp/shots-projects');
const REQUIRED = "This is a required field. Don't leave it empty";
const PLATFORM_REQUIRED = 'Select a platform, do not leave the field empty';
const SAVE_INVALID = 'Fill in the required fields';

test.use({ viewport: { width: 1440, height: 900 } });

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A picture for looking at (support.ts's shot), from the top of the page. */
async function look(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, SHOTS, name);
}

/** Confirms the open confirmation dialog after checking what it says. */
async function confirm(page: Page, says: RegExp) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(says);
  await dialog.getByTestId('confirm-action').click();
  await expect(dialog).toBeHidden();
}

test('a project from the wizard to the archive; a draft from the dialog is deleted', async ({ page }) => {
  test.setTimeout(120_000);
  const title = `Wizard project ${Date.now().toString(36)}`;
  await login(page);
  await expect(page.getByTestId('projects-empty').or(page.getByTestId('projects-table'))).toBeVisible();
  await look(page, 'list-start');

  await test.step('the wizard checks each step and creates a draft of the old flow', async () => {
    await page.getByRole('link', { name: 'Create via wizard' }).first().click();
    await expect(page).toHaveURL(/\/cabinet\/projects\/add$/);
    await expect(page.getByRole('heading', { name: 'New project', level: 2 })).toBeVisible();
    await expect(page.getByTestId('flow-type-warning')).toHaveText(
      'The flow type cannot be changed after the project is created.',
    );
    await expect(page.getByTestId('flow-type-new')).toContainText(
      'Improved neural network. Long 34-second calibration.',
    );
    await expect(page.getByTestId('flow-type-old')).toContainText(
      'Comparable with tests before 2024. Short 12-second calibration.',
    );
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByTestId('flow-type-picker')).toContainText(REQUIRED);
    await page.getByTestId('flow-type-old').click();
    await look(page, 'wizard-flow-type');
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    await expect(page.getByTestId('wizard-step-details')).toBeVisible();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByTestId('wizard-step-details')).toContainText(REQUIRED);
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Created by the e2e wizard test');
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    await expect(page.getByTestId('wizard-step-audience')).toBeVisible();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByTestId('wizard-step-audience')).toContainText(PLATFORM_REQUIRED);
    await expect(page.getByTestId('wizard-step-audience')).toContainText(REQUIRED);
    await pick(page, 'Platform', 'Toloka');
    await pick(page, 'Respondent language', 'English');
    await pick(page, 'Audience type', 'Simple (sex, age, geography)');
    await page.getByRole('textbox', { name: 'Required respondents', exact: true }).fill('120');
    await look(page, 'wizard-audience');
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    // The research step is optional: no research is the default.
    await expect(page.getByTestId('wizard-step-research')).toBeVisible();
    await expect(page.getByRole('radio', { name: /Not now/ })).toBeChecked();
    await page.getByRole('button', { name: 'Next', exact: true }).click();

    const review = page.getByTestId('wizard-review');
    await expect(review).toContainText(title);
    await expect(review).toContainText('Old flow · 12 s calibration');
    await expect(review).toContainText('Toloka');
    await expect(review).toContainText('Simple (sex, age, geography)');
    await expect(page.getByTestId('wizard-review-research')).toContainText('None: added later');
    await expect(page.getByTestId('wizard-step-review')).toContainText('Scenarios and further researches are added');
    await look(page, 'wizard-review');
    await page.getByRole('button', { name: 'Create project' }).click();

    await expect(page).toHaveURL(/\/cabinet\/projects\/[^/]+$/);
    await expect(page.getByTestId('project-title')).toHaveText(title);
    await expect(page.getByTestId('project-status')).toHaveText('Draft');
    await expect(page.getByTestId('project-flow-type')).toHaveText('Old flow · 12 s calibration');
    await expect(page.getByRole('textbox', { name: 'Required respondents', exact: true })).toHaveValue('120');
  });
  const projectUrl = page.url();

  await test.step('the list shows it in Drafts; the search stays in the address', async () => {
    await page.getByRole('link', { name: 'All projects' }).click();
    // An account with no active project is shown its drafts (this worker's account may have none yet).
    await expect(page).toHaveURL(/\/cabinet\/projects(\?tab=drafts)?$/);
    await expect(page.getByRole('heading', { name: 'Projects', level: 2 })).toBeVisible();
    await page.getByTestId('projects-tab-drafts').click();
    await expect(page).toHaveURL(/tab=drafts/);
    await expect(page.getByTestId('project-row').filter({ hasText: title })).toContainText('Draft');
    await page.getByTestId('projects-search').fill(title.slice(-6));
    await expect(page).toHaveURL(new RegExp(`search=${title.slice(-6)}`));
    await page.reload();
    await expect(page.getByTestId('projects-search')).toHaveValue(title.slice(-6));
    const row = page.getByTestId('project-row').filter({ hasText: title });
    await expect(row).toContainText('Toloka');
    await expect(row.getByTestId('project-flow-type')).toHaveText('Old');
    await expect(page.getByTestId('project-row')).toHaveCount(1);
    await page.getByTestId('projects-search').fill('no such project at all');
    await expect(page.getByTestId('projects-empty')).toContainText('No projects match');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByTestId('project-row').filter({ hasText: title })).toBeVisible();
    await look(page, 'list-drafts');
    await page.getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(projectUrl);
  });

  await test.step('editing saves', async () => {
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Edited by the e2e test');
    await page.getByTestId('project-form').getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('The project is saved')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Description', exact: true })).toHaveValue('Edited by the e2e test');
  });

  await test.step('a save over a change made meanwhile in another tab is a conflict, then a reload', async () => {
    const other = await page.context().newPage();
    await other.goto(projectUrl);
    await other.getByRole('textbox', { name: 'Description', exact: true }).fill('Changed in another tab');
    await other.getByTestId('project-form').getByRole('button', { name: 'Save', exact: true }).click();
    await expect(other.getByText('The project is saved')).toBeVisible();
    await other.close();

    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('My change');
    await page.getByTestId('project-form').getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = page.getByTestId('project-conflict');
    await expect(conflict).toContainText('Someone else changed this in the meantime.');
    await conflict.getByRole('button', { name: 'Reload the project' }).click();
    await expect(conflict).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Description', exact: true })).toHaveValue('Changed in another tab');
  });

  await test.step('an empty title shows the spec messages', async () => {
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('');
    await page.getByTestId('project-form').getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByTestId('project-page')).toContainText(REQUIRED);
    await expect(page.getByText(SAVE_INVALID)).toBeVisible();
  });

  await test.step('leaving with unsaved changes asks first', async () => {
    await expect(page.getByTestId('unsaved-changes')).toBeVisible();
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(dialog).toContainText('will be lost');
    await dialog.getByRole('button', { name: 'Stay on the page' }).click();
    await expect(page).toHaveURL(projectUrl);
    // Closing or reloading the tab gets the browser's own question.
    const asks = await page.evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(asks).toBe(true);
    await page.getByTestId('project-form').getByRole('button', { name: 'Discard changes', exact: true }).click();
    await expect(page.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
    await expect(page.getByTestId('unsaved-changes')).toBeHidden();
    await look(page, 'project-draft');
  });

  await test.step('an empty project is not launched: the notice names what is missing', async () => {
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    await confirm(page, /freezes the project's researches and scenarios/);
    const details = page.getByTestId('error-details');
    await expect(details).toContainText('Not enough data to launch');
    await expect(details.locator('li')).toHaveText(['Add at least one scenario', 'Create a quota link']);
    await expect(page.getByTestId('project-status')).toHaveText('Draft');
    await look(page, 'project-launch-refused');
  });

  await test.step('launch, complete, archive', async () => {
    // What a launch needs, made through the API: a contentless research in a scenario, and a quota link.
    const projectId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await readyToLaunch(page, projectId);
    await page.reload();
    await page.getByRole('button', { name: 'Launch', exact: true }).click();
    await confirm(page, /freezes the project's researches and scenarios/);
    await expect(page.getByTestId('project-status')).toHaveText('Active');
    await expect(page.getByRole('button', { name: 'Delete draft', exact: true })).toBeHidden();

    await page.getByRole('link', { name: 'All projects' }).click();
    await page.getByTestId('projects-tab-active').click();
    await expect(page.getByTestId('project-row').filter({ hasText: title })).toContainText('Active');
    await page.getByRole('link', { name: title }).click();

    await page.getByRole('button', { name: 'Complete', exact: true }).click();
    await confirm(page, /can no longer be edited/);
    await expect(page.getByTestId('project-status')).toHaveText('Completed');
    await expect(page.getByTestId('status-notice')).toContainText('can no longer be edited');
    await expect(page.getByRole('textbox', { name: 'Title', exact: true })).toHaveAttribute('readonly', '');
    await expect(page.getByTestId('project-form').getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    await look(page, 'project-completed');

    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await confirm(page, /data and reports will be hidden/);
    await expect(page.getByTestId('project-status')).toHaveText('Archived');
    await expect(page.getByTestId('project-contents')).toContainText('its data and reports are hidden');

    await page.getByRole('link', { name: 'All projects' }).click();
    await page.getByTestId('projects-tab-archive').click();
    await expect(page.getByTestId('project-row').filter({ hasText: title })).toContainText('Archived');
  });

  await test.step('a project from the dialog; a wrong new owner; the draft is deleted', async () => {
    const draft = `Dialog draft ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Create project' }).first().click();
    const dialog = page.getByTestId('create-project-dialog');
    await expect(dialog).toContainText('The flow type cannot be changed after the project is created.');
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(dialog).toContainText(REQUIRED);
    await dialog.getByTestId('flow-type-new').click();
    await look(page, 'create-dialog-flow');
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect(dialog).toContainText(PLATFORM_REQUIRED);
    await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill(draft);
    await pick(page, 'Platform', 'Own audience (clear link)');
    await pick(page, 'Respondent language', 'Korean');
    await pick(page, 'Audience type', 'Without recruiting');
    await dialog.getByRole('button', { name: 'Create project' }).click();

    await expect(page.getByTestId('project-title')).toHaveText(draft);
    await expect(page.getByTestId('project-flow-type')).toHaveText('New flow · 34 s calibration');
    const draftUrl = page.url();

    await page.getByRole('button', { name: 'Change owner', exact: true }).click();
    const owner = page.getByTestId('change-owner-dialog');
    await owner.getByRole('textbox', { name: 'User ID of the new owner' }).fill('no-such-user');
    await owner.getByRole('button', { name: 'Change owner', exact: true }).click();
    await expect(owner).toContainText("User doesn't exist");
    await owner.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete draft', exact: true }).click();
    await confirm(page, /cannot be undone/);
    await expect(page).toHaveURL(/\/cabinet\/projects\?tab=drafts$/);
    await expect(page.getByText(`The draft “${draft}” is deleted`)).toBeVisible();
    await expect(page.getByTestId('project-row').filter({ hasText: draft })).toHaveCount(0);

    await page.goto(draftUrl);
    await expect(page.getByTestId('project-not-found')).toContainText('Project not found');
  });

  await test.step('a project that fails to load says so in a red notification', async () => {
    await page.route('**/api/cabinet/projects/*/', (route) =>
      route.fulfill({ status: 500, json: { code: 'internal', message: 'Something went wrong...' } }),
    );
    await page.goto(projectUrl);
    await expect(
      page.getByText('Unable to get information about the project, try to reload the page').first(),
    ).toBeVisible();
    await expect(page.getByTestId('project-load-error')).toBeVisible();
    await page.unrouteAll();
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByTestId('project-title')).toHaveText(title);
  });

  await test.step('the list in Russian', async () => {
    await page.goto('/cabinet/projects?tab=archive&curr_lang=ru');
    await expect(page.getByRole('heading', { name: 'Проекты', level: 2 })).toBeVisible();
    await expect(page.getByTestId('project-row').filter({ hasText: title })).toContainText('В архиве');
    await look(page, 'list-archive-ru');
    await page.getByRole('link', { name: title }).click();
    await expect(page.getByTestId('project-status')).toHaveText('В архиве');
    await look(page, 'project-archived-ru');
    // Back to English, for the user as stored on the server too.
    await page.goto('/cabinet/projects?curr_lang=en');
    await expect(page.getByRole('heading', { name: 'Projects', level: 2 })).toBeVisible();
  });
});

test('validation messages, of the form and of the server, are shown in the interface language', async ({ page }) => {
  test.setTimeout(90_000);
  await login(page);
  const id = await createProject(page, `Messages ${Date.now().toString(36)}`);
  const languages = {
    ru: {
      title: 'Название',
      save: 'Сохранить',
      required: 'Это обязательное поле. Не оставляйте его пустым',
      saveInvalid: 'Заполните обязательные поля',
      owner: ['Сменить владельца', 'ID пользователя — нового владельца', 'Пользователь не существует'],
    },
    en: {
      title: 'Title',
      save: 'Save',
      required: REQUIRED,
      saveInvalid: SAVE_INVALID,
      owner: ['Change owner', 'User ID of the new owner', "User doesn't exist"],
    },
  } as const;
  for (const [language, says] of Object.entries(languages)) {
    await test.step(language, async () => {
      await page.goto(`/cabinet/projects/${id}?curr_lang=${language}`);
      // A message only the server can give, by its key.
      const [button, field, unknown] = says.owner;
      await page.getByRole('button', { name: button, exact: true }).click();
      const owner = page.getByTestId('change-owner-dialog');
      await owner.getByRole('textbox', { name: field }).fill('no-such-user');
      await owner.getByRole('button', { name: button, exact: true }).click();
      await expect(owner).toContainText(unknown);
      await page.keyboard.press('Escape');
      await expect(owner).toBeHidden();
      // The schema's message, checked in the browser, and the spec's notice.
      await page.getByRole('textbox', { name: says.title, exact: true }).fill('');
      await page.getByTestId('project-form').getByRole('button', { name: says.save, exact: true }).click();
      await expect(page.getByTestId('project-page')).toContainText(says.required);
      await expect(page.getByText(says.saveInvalid)).toBeVisible();
      await shot(page, SHOTS, `validation-${language}`, { closeNotifications: false });
    });
  }
});
