// Questionnaires built in the editor: a screener with a dropout and a quota question, a survey with every question
// type and display logic; each saved, kept after a reload and previewed. surveys-versions.spec.ts and
// surveys-layout.spec.ts have the rest.
import { resolve } from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { login, pointerDrag, shot } from './support.ts';

const SHOTS = resolve(import.meta.dirname, '../../.tmp/shots-surveys');

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

/** The values of the inputs a locator finds, in order. */
const values = (inputs: Locator) => inputs.evaluateAll((nodes) => nodes.map((n) => (n as HTMLInputElement).value));

/** Moves a row one place with the keyboard: Space lifts it, an arrow moves it, Space drops it. */
async function keyboardMove(page: Page, handle: Locator, key: 'ArrowUp' | 'ArrowDown') {
  await handle.focus();
  await page.keyboard.press('Space');
  // Each step is measured on the next frames: give it a moment, as a person would.
  await page.waitForTimeout(300);
  await page.keyboard.press(key);
  await page.waitForTimeout(300);
  await page.keyboard.press('Space');
}

/** Creates a questionnaire from the list's dialog; the editor opens. */
async function create(page: Page, type: 'Screener' | 'Survey', title: string) {
  await page.goto('/cabinet/surveys');
  await page.getByTestId('survey-create').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText(type, { exact: true }).click();
  await dialog.getByTestId('create-survey-title').fill(title);
  await dialog.getByTestId('create-survey-submit').click();
  await expect(page).toHaveURL(/\/cabinet\/surveys\/[^/]+$/);
  await expect(page.getByTestId('survey-heading')).toHaveText(title);
}

/** Adds a question of a type (its menu label); the new card. */
async function addQuestion(page: Page, label: string): Promise<Locator> {
  await page.getByTestId('question-add').click();
  await page.getByRole('menuitem', { name: new RegExp(`^${label}`) }).click();
  return page.getByTestId('question-card').last();
}

async function fillOptions(card: Locator, kind: 'option' | 'row', texts: string[]) {
  const inputs = card.getByTestId(`${kind}-text`);
  for (const [i, text] of texts.entries()) {
    if ((await inputs.count()) <= i) await card.getByTestId(`${kind}-add`).click();
    await inputs.nth(i).fill(text);
  }
}

async function save(page: Page) {
  await page.getByTestId('survey-save').click();
  await expect(page.getByTestId('survey-save-status')).toHaveText('All changes saved');
}

test('a screener with a dropout and a 50/50 quota question is built, saved, kept and previewed', async ({ page }) => {
  test.setTimeout(120_000);
  const title = `Smokers screener ${Date.now().toString(36)}`;
  await login(page);
  await create(page, 'Screener', title);
  await expect(page.getByTestId('questions-empty')).toBeVisible();

  await test.step('a question whose second option screens out', async () => {
    const card = await addQuestion(page, 'Single choice');
    await card.getByTestId('question-text').fill('Do you smoke?');
    await fillOptions(card, 'option', ['Yes', 'No']);
    await card.getByTestId('option-rule').nth(1).getByText('Screen out').click();
    await expect(card.getByTestId('quota-sum')).toHaveCount(0);
  });

  await test.step('a quota question: the sum goes from 50% (an error) to 100%', async () => {
    const card = await addQuestion(page, 'Single choice');
    await card.getByTestId('question-text').fill('Your gender');
    await fillOptions(card, 'option', ['Woman', 'Man']);
    await card.getByTestId('option-rule').nth(0).getByText('Quota').click();
    await card.getByTestId('option-share').fill('50');
    await card.getByTestId('option-rule').nth(1).getByText('Quota').click();
    const sum = card.getByTestId('quota-sum');
    await expect(sum).toContainText('50%');
    await expect(card.getByTestId('option-list-error')).toHaveText(
      'Screener quota shares must add up to at least 100% (now 50%)',
    );
    await expect(card.getByTestId('option-share').nth(1)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('survey-save-status')).toContainText('Problems to fix before saving');
    await card.getByTestId('option-share').nth(1).fill('50');
    await expect(sum).toContainText('100%');
    await expect(card.getByTestId('option-list-error')).toHaveCount(0);
    await expect(page.getByTestId('survey-save-status')).toHaveText('Unsaved changes');
    // It gives the respondent's sex (for the statistics' and reports' filters): each option says which.
    await card.getByTestId('question-profile-sex').check({ force: true });
    await expect(page.getByTestId('survey-save-status')).toContainText('Problems to fix before saving');
    await card.getByTestId('option-sex').nth(0).getByText('Woman', { exact: true }).click();
    await card.getByTestId('option-sex').nth(1).getByText('Man', { exact: true }).click();
    await expect(page.getByTestId('survey-save-status')).toHaveText('Unsaved changes');
    await shot(page, SHOTS, 'screener-en-1440', { closeNotifications: true });
  });

  await test.step('saved and kept after a reload', async () => {
    await save(page);
    await page.reload();
    const cards = page.getByTestId('question-card');
    await expect(cards).toHaveCount(2);
    await expect(cards.nth(0).getByTestId('question-text')).toHaveValue('Do you smoke?');
    await expect(
      cards.nth(0).getByTestId('option-rule').nth(1).getByRole('radio', { name: 'Screen out' }),
    ).toBeChecked();
    await expect(cards.nth(1).getByTestId('option-share')).toHaveCount(2);
    await expect(cards.nth(1).getByTestId('option-share').nth(0)).toHaveValue('50%');
    await expect(cards.nth(1).getByTestId('quota-sum')).toContainText('100%');
    await expect(cards.nth(1).getByTestId('question-profile-sex')).toBeChecked();
    await expect(cards.nth(1).getByTestId('option-sex').nth(0).getByRole('radio', { name: 'Woman' })).toBeChecked();
    await expect(cards.nth(0).getByTestId('question-profile-sex')).not.toBeChecked();
  });

  await test.step('the preview screens out on the dropout answer, at phone width', async () => {
    await page.getByTestId('survey-preview-open').click();
    const preview = page.getByTestId('survey-preview');
    await preview.getByTestId('preview-device').locator('label', { hasText: 'Phone' }).click();
    const frame = preview.getByTestId('preview-frame');
    await expect(frame).toHaveAttribute('data-device', 'phone');
    // The width eases to a phone's (390 px, frame included).
    await expect.poll(async () => (await frame.boundingBox())?.width).toBeLessThanOrEqual(390);
    // A non-smoker is screened out.
    await frame.getByText('No', { exact: true }).click();
    await frame.getByText('Woman', { exact: true }).click();
    await frame.getByTestId('survey-form-submit').click();
    await expect(frame.getByTestId('preview-outcome')).toHaveAttribute('data-outcome', 'dropout');
    await frame.getByRole('button', { name: 'Start again' }).click();
    await frame.getByText('Yes', { exact: true }).click();
    await frame.getByTestId('survey-form-submit').click();
    // The quota question is required.
    await expect(frame.getByTestId('survey-form-error')).toHaveText("This is a required field. Don't leave it empty");
    await frame.getByText('Man', { exact: true }).click();
    await frame.getByTestId('survey-form-submit').click();
    await expect(frame.getByTestId('preview-outcome')).toHaveAttribute('data-outcome', 'pass');
    await expect(frame.getByTestId('preview-outcome')).toContainText('Man — 50%');
    await page.keyboard.press('Escape');
  });

  await test.step('the list shows it, filtered by type', async () => {
    await page.goto('/cabinet/surveys?type=screener');
    const row = page.getByTestId('survey-row').filter({ hasText: title });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('survey-type')).toHaveText('Screener');
    await expect(row.getByTestId('survey-question-count')).toHaveText('2');
    await expect(row.getByTestId('survey-links')).toHaveText('Not linked to a scenario');
    await page.getByTestId('surveys-type-filter').getByText('Surveys').click();
    await expect(page).toHaveURL(/type=survey$/);
    await expect(page.getByTestId('survey-row').filter({ hasText: title })).toHaveCount(0);
  });
});

test('a survey with every question type and display logic is saved, kept and previewed at phone width', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const title = `Brand survey ${Date.now().toString(36)}`;
  await login(page);
  await create(page, 'Survey', title);

  await test.step('every question type', async () => {
    const single = await addQuestion(page, 'Single choice');
    await single.getByTestId('question-text').fill('Which brand do you buy?');
    await fillOptions(single, 'option', ['Alpha', 'Beta']);
    await single.getByTestId('question-other').check({ force: true });
    // A survey has no screener rules.
    await expect(single.getByTestId('option-rule')).toHaveCount(0);

    const multiple = await addQuestion(page, 'Multiple choice');
    await multiple.getByTestId('question-text').fill('Where do you shop?');
    await fillOptions(multiple, 'option', ['Online', 'Supermarket', 'Corner shop']);

    const scale = await addQuestion(page, 'Scale');
    await scale.getByTestId('question-text').fill('How much do you like Beta?');
    await scale.getByTestId('question-max').fill('7');
    await scale.getByTestId('question-min-label').fill('Not at all');
    await scale.getByTestId('question-max-label').fill('Very much');

    const number = await addQuestion(page, 'Number');
    await number.getByTestId('question-text').fill('Your age');
    await number.getByTestId('question-min').fill('18');
    await number.getByTestId('question-max').fill('12');
    await expect(number).toContainText('The largest number must not be smaller than the smallest');
    await number.getByTestId('question-max').fill('99');
    await expect(number).not.toContainText('The largest number must not be smaller than the smallest');

    const text = await addQuestion(page, 'Open text');
    await text.getByTestId('question-text').fill('Why Beta?');
    await text.getByTestId('condition-add').click();
    const condition = text.getByTestId('condition-row');
    await condition.getByTestId('condition-question').click();
    await page.getByRole('option', { name: '1. Which brand do you buy?' }).click();
    await expect(condition.getByTestId('condition-value')).toHaveAttribute('aria-invalid', 'true');
    await condition.getByTestId('condition-value').click();
    await page.getByRole('option', { name: 'Beta', exact: true }).click();
    await expect(condition.getByTestId('condition-value')).toHaveValue('Beta');

    const matrix = await addQuestion(page, 'Matrix');
    await matrix.getByTestId('question-text').fill('Rate the brands');
    await fillOptions(matrix, 'row', ['Alpha', 'Beta']);
    await fillOptions(matrix, 'option', ['Bad', 'Fine', 'Good']);

    const info = await addQuestion(page, 'Information');
    await info.getByTestId('question-text').fill('Thank you!');
    await expect(info.getByTestId('question-required')).toHaveCount(0);
    await expect(page.getByTestId('question-card')).toHaveCount(7);
  });

  await test.step('the texts lack Russian, Indonesian and Korean; a Russian text is typed', async () => {
    await expect(page.getByTestId('language-tab-en')).toHaveAttribute('data-missing', '0');
    const missing = Number(await page.getByTestId('language-tab-ru').getAttribute('data-missing'));
    expect(missing).toBeGreaterThan(15);
    await page.getByTestId('survey-language').getByText('RU').click();
    const first = page.getByTestId('question-card').first().getByTestId('question-text');
    await expect(first).toHaveValue('');
    await expect(first).toHaveAttribute('placeholder', 'EN: Which brand do you buy?');
    await expect(first).toHaveAttribute('data-missing', 'true');
    await first.fill('Какой бренд вы покупаете?');
    await expect(page.getByTestId('language-tab-ru')).toHaveAttribute('data-missing', String(missing - 1));
    await page.getByTestId('survey-language').getByText('EN').click();
  });

  await test.step('the order menu moves a question down and back; its logic stays while it stays earlier', async () => {
    const first = page.getByTestId('question-card').first();
    await first.getByTestId('question-order-menu').click();
    await page.getByTestId('question-move-down').click();
    await expect(page.getByTestId('question-card').nth(1).getByTestId('question-text')).toHaveValue(
      'Which brand do you buy?',
    );
    await expect(page.getByTestId('question-card').nth(4).getByTestId('condition-row')).toHaveCount(1);
    await page.getByTestId('question-card').nth(1).getByTestId('question-order-menu').click();
    await page.getByTestId('question-move-up').click();
    await expect(page.getByTestId('question-card').first().getByTestId('question-text')).toHaveValue(
      'Which brand do you buy?',
    );
  });

  await test.step('duplicate and delete a question', async () => {
    const multiple = page.getByTestId('question-card').nth(1);
    await multiple.getByTestId('question-duplicate').click();
    await expect(page.getByTestId('question-card')).toHaveCount(8);
    const copy = page.getByTestId('question-card').nth(2);
    await expect(copy.getByTestId('question-text')).toHaveValue('Where do you shop?');
    await expect(copy.getByTestId('option-text')).toHaveCount(3);
    await copy.getByTestId('question-delete').click();
    await page.getByTestId('confirm-question-delete').click();
    await expect(page.getByTestId('question-card')).toHaveCount(7);
  });

  await test.step('options are dragged by the pointer, questions by the keyboard', async () => {
    const multiple = page.getByTestId('question-card').nth(1);
    const options = multiple.getByTestId('option-row');
    await pointerDrag(page, options.nth(2).getByTestId('option-drag-handle'), options.nth(0));
    await expect
      .poll(() => values(multiple.getByTestId('option-text')))
      .toEqual(['Corner shop', 'Online', 'Supermarket']);

    const cards = page.getByTestId('question-card');
    const handle = cards.nth(6).getByTestId('question-drag-handle');
    await keyboardMove(page, handle, 'ArrowUp');
    await expect(cards.nth(5)).toHaveAttribute('data-question-type', 'info');
    await keyboardMove(page, cards.nth(5).getByTestId('question-drag-handle'), 'ArrowDown');
    await expect(cards.nth(6)).toHaveAttribute('data-question-type', 'info');
  });

  await test.step('saved and kept after a reload', async () => {
    await save(page);
    await shot(page, SHOTS, 'survey-en-1440');
    await page.reload();
    const cards = page.getByTestId('question-card');
    await expect(cards).toHaveCount(7);
    const types = await cards.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-question-type')));
    expect(types).toEqual(['single', 'multiple', 'scale', 'number', 'text', 'matrix', 'info']);
    await expect(cards.nth(0).getByTestId('question-other')).toBeChecked();
    await expect
      .poll(() => values(cards.nth(1).getByTestId('option-text')))
      .toEqual(['Corner shop', 'Online', 'Supermarket']);
    await expect(cards.nth(2).getByTestId('question-max')).toHaveValue('7');
    await expect(cards.nth(2).getByTestId('question-max-label')).toHaveValue('Very much');
    await expect(cards.nth(3).getByTestId('question-min')).toHaveValue('18');
    const condition = cards.nth(4).getByTestId('condition-row');
    await expect(condition.getByTestId('condition-question')).toHaveValue('1. Which brand do you buy?');
    await expect(condition.getByTestId('condition-operator')).toHaveValue('is chosen');
    await expect(condition.getByTestId('condition-value')).toHaveValue('Beta');
    await expect(cards.nth(5).getByTestId('row-text')).toHaveCount(2);
    await expect(cards.nth(5).getByTestId('option-text')).toHaveCount(3);
  });

  await test.step('moving the condition’s question below it drops the condition, with a notice', async () => {
    await page.getByTestId('question-card').first().getByTestId('question-order-menu').click();
    await page.getByTestId('question-move-down').click();
    for (let i = 1; i < 4; i += 1) {
      await page.getByTestId('question-card').nth(i).getByTestId('question-order-menu').click();
      await page.getByTestId('question-move-down').click();
    }
    await expect(page.getByTestId('question-card').nth(4).getByTestId('question-text')).toHaveValue(
      'Which brand do you buy?',
    );
    await expect(page.getByTestId('question-card').nth(3).getByTestId('condition-row')).toHaveCount(0);
    await expect(page.getByText('Display-logic conditions removed: 1.', { exact: false })).toBeVisible();
    await page.getByTestId('survey-discard').click();
    await expect(page.getByTestId('question-card').nth(4).getByTestId('condition-row')).toHaveCount(1);
  });

  await test.step('the preview at phone width follows the display logic and checks the answers', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('survey-preview-open').click();
    const preview = page.getByTestId('survey-preview');
    await preview.getByTestId('preview-device').locator('label', { hasText: 'Phone' }).click();
    const frame = preview.getByTestId('preview-frame');
    const questions = frame.getByTestId('survey-form-question');
    await expect(questions).toHaveCount(6);
    await expect(frame).not.toContainText('Why Beta?');
    await frame.getByText('Beta', { exact: true }).first().click();
    await expect(questions).toHaveCount(7);
    await expect(frame).toContainText('Why Beta?');
    // At a phone's width the matrix is a list of rows.
    await expect(frame.getByTestId('survey-form-matrix')).toHaveAttribute('data-layout', 'list');
    await shot(page, SHOTS, 'survey-preview-en-390');
    await frame.getByText('Alpha', { exact: true }).first().click();
    await expect(frame).not.toContainText('Why Beta?');
    await frame.getByTestId('survey-form-submit').click();
    await expect(frame.getByTestId('survey-form-error').first()).toBeVisible();
    await page.keyboard.press('Escape');
    await shot(page, SHOTS, 'survey-en-390');
  });
});
