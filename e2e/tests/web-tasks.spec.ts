import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { createResearch, login, renderShop, shot } from './support.ts';

const TMP = resolve(import.meta.dirname, '../../.tmp');
const SHOTS = resolve(TMP, 'shots-web-tasks');
const FILES = resolve(TMP, 'web-tasks-e2e');
const FIGMA_LINK = 'https://www.figma.com/proto/AbCdEfGhIjKlMnOp/Shop?node-id=1-2';

const SCREENSHOT_REQUIRED = 'Upload a screenshot for the task';
const FINAL_POINT_REQUIRED = 'Set the final point on the screenshot';
const STEP_TWICE = "This step is already in the task's list";

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

test('website tasks: required screenshot and final point, steps, any-click mode, saved with the research, Figma embed', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // No request leaves for figma.com unless the preview is opened (and none gets out at all here).
  const figmaRequests: string[] = [];
  await page.route(/figma\.com/, (route) => {
    figmaRequests.push(route.request().url());
    return route.abort();
  });

  const shop = await renderShop(page, FILES);
  await login(page);
  const researchId = await createResearch(page, 'site', {
    host: 'Tasks host',
    title: 'Shop prototype',
    site_url: FIGMA_LINK,
  });

  await page.goto(`/cabinet/campaign/${researchId}/form`);
  const builder = page.getByTestId('web-tasks');
  await expect(builder.getByTestId('tasks-empty')).toContainText('No tasks yet');
  const editor = page.getByTestId('task-editor');

  await test.step('a task without a screenshot and a final point is not put into the list', async () => {
    await builder.getByTestId('task-add').click();
    await expect(editor).toBeVisible();
    await editor.getByTestId('task-save').click();
    await expect(editor.getByTestId('task-image-error')).toHaveText(SCREENSHOT_REQUIRED);
    await expect(editor.getByTestId('task-final-point-error')).toHaveText(FINAL_POINT_REQUIRED);
    await expect(editor.getByTestId('task-errors')).toContainText(SCREENSHOT_REQUIRED);
    await expect(editor.getByTestId('task-errors')).toContainText(FINAL_POINT_REQUIRED);
    await shot(page, SHOTS, '01-required');
  });

  await test.step('the screenshot is uploaded from the task and the final point set by a click', async () => {
    await editor.getByTestId('task-image-input').setInputFiles(shop);
    await expect(editor.getByTestId('task-canvas')).toBeVisible({ timeout: 20_000 });
    await expect(editor.getByTestId('task-image-error')).toHaveCount(0);
    await expect(editor.getByTestId('task-image-select')).toHaveValue('shop.png');
    await expect(page.getByTestId('media-item')).toHaveCount(1);
    await expect(editor.getByTestId('task-final-point-error')).toHaveText(FINAL_POINT_REQUIRED);

    const canvas = editor.getByTestId('task-canvas-target');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the screenshot is not shown');
    await canvas.click({ position: { x: box.width / 2, y: box.height / 4 } });
    const marker = editor.getByTestId('final-point-marker');
    await expect(marker).toBeVisible();
    expect(Number(await marker.getAttribute('data-x'))).toBeCloseTo(0.5, 1);
    expect(Number(await marker.getAttribute('data-y'))).toBeCloseTo(0.25, 1);
    await expect(editor.getByTestId('task-final-point-error')).toHaveCount(0);

    await editor.getByTestId('point-mode').getByText('Additional points').click();
    await canvas.click({ position: { x: 40, y: 30 } });
    await expect(editor.getByTestId('additional-point-marker')).toHaveCount(1);
    await editor.getByTestId('task-description').fill('Find product 2 and add it to the cart');
  });

  const steps = editor.getByTestId('step-row');
  await test.step('a step already in the list is refused; the next step waits for the previous one', async () => {
    await expect(editor.getByTestId('steps-empty')).toBeVisible();
    await editor.getByTestId('step-add').click();
    await expect(editor.getByTestId('step-add')).toHaveAttribute('data-disabled', 'true');
    await editor.getByTestId('step-add').hover();
    await expect(page.getByRole('tooltip')).toContainText('Finish step 1 first');
    await steps.nth(0).getByTestId('step-node-id').fill('12:345');
    await expect(editor.getByTestId('step-add')).not.toHaveAttribute('data-disabled', 'true');
    await editor.getByTestId('step-add').click();
    await steps.nth(1).getByTestId('step-node-id').fill('12-345');
    await expect(steps.nth(1)).toContainText(STEP_TWICE);
    await expect(editor.getByTestId('step-add')).toHaveAttribute('data-disabled', 'true');
    await editor.getByTestId('step-add').click({ force: true });
    await expect(steps).toHaveCount(2);
    await editor.getByTestId('task-save').click();
    await expect(editor.getByTestId('task-errors')).toContainText(STEP_TWICE);
    await expect(editor).toBeVisible();
    await shot(page, SHOTS, '02-step-twice');
  });

  await test.step('turning any-click mode on asks, then removes the steps', async () => {
    const anyClick = editor.getByTestId('task-any-click');
    await anyClick.click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Turn on any-click mode?' });
    await expect(confirm).toContainText('(2)');
    await shot(page, SHOTS, '03-any-click-confirm');
    await page.getByTestId('any-click-confirm').click();
    await expect(confirm).toHaveCount(0);
    await expect(editor.getByTestId('task-any-click')).toBeChecked();
    await expect(editor.getByTestId('any-click-note')).toBeVisible();
    await expect(editor.getByTestId('steps-editor')).toHaveCount(0);
    await anyClick.click();
    await expect(editor.getByTestId('task-any-click')).not.toBeChecked();
    await expect(editor.getByTestId('steps-empty')).toBeVisible();
    await expect(steps).toHaveCount(0);
  });

  await test.step('a valid task goes into the list and stays there after Save and a reload', async () => {
    await editor.getByTestId('step-add').click();
    await steps.nth(0).getByTestId('step-node-id').fill('12:345');
    await steps.nth(0).getByTestId('step-description').fill('Catalog');
    await editor.getByTestId('step-add').click();
    // A pasted screen link gives its node id.
    await steps
      .nth(1)
      .getByTestId('step-node-id')
      .fill('https://www.figma.com/proto/AbCdEfGhIjKlMnOp/Shop?node-id=12-400');
    await expect(steps.nth(1).getByTestId('step-node-id')).toHaveValue('12:400');
    await steps.nth(1).getByTestId('step-final').check();
    await editor.getByTestId('task-save').click();
    await expect(editor).toHaveCount(0);

    const card = builder.getByTestId('task-card');
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('task-card-description')).toHaveText('Find product 2 and add it to the cart');
    await expect(card.getByTestId('task-card-steps')).toHaveText('Steps: 2');
    await expect(card.getByTestId('task-card-time')).toHaveText('60 s');
    await expect(page.getByTestId('unsaved-changes')).toBeVisible();
    await page.getByTestId('campaign-save').click();
    await expect(page.getByTestId('unsaved-changes')).toHaveCount(0);

    await page.reload();
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('task-card-path')).toHaveText('12:345 → 12:400');
    await card.scrollIntoViewIfNeeded();
    await shot(page, SHOTS, '04-saved');
    await card.getByTestId('task-edit').click();
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(1).getByTestId('step-final')).toBeChecked();
    await expect(editor.getByTestId('final-point-marker')).toBeVisible();
    await expect(editor.getByTestId('additional-point-marker')).toHaveCount(1);
    await editor.getByTestId('task-cancel').click();
    await expect(editor).toHaveCount(0);
  });

  await test.step('duplicated tasks keep their content; a deleted one leaves the list', async () => {
    const cards = builder.getByTestId('task-card');
    await cards.first().getByTestId('task-duplicate').click();
    await expect(cards).toHaveCount(2);
    await expect(cards.nth(1).getByTestId('task-card-steps')).toHaveText('Steps: 2');
    await cards.nth(1).getByTestId('task-delete').click();
    await page.getByTestId('task-confirm-delete').click();
    await expect(cards).toHaveCount(1);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('unsaved-changes')).toHaveCount(0);
  });

  await test.step('a Figma prototype: the embed address with its options, previewed only on demand', async () => {
    await page.getByTestId('setting-isFigma').check();
    const panel = builder.getByTestId('figma-panel');
    await expect(panel).toBeVisible();
    const shown = new URL((await panel.getByTestId('figma-embed-url').textContent()) ?? '');
    expect(shown.host).toBe('embed.figma.com');
    expect(shown.searchParams.get('scaling')).toBe('contain');
    expect(shown.searchParams.get('hotspot-hints')).toBe('0');
    expect(shown.searchParams.get('hide-ui')).toBe('1');
    await expect(page.getByTestId('figma-preview-frame')).toHaveCount(0);
    expect(figmaRequests).toEqual([]);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, SHOTS, '05-figma');

    await panel.getByTestId('figma-preview').click();
    const frame = page.getByTestId('figma-preview-frame');
    await expect(frame).toBeVisible();
    const src = new URL((await frame.getAttribute('src')) ?? '');
    expect(src.searchParams.get('scaling')).toBe('contain');
    expect(src.searchParams.get('hotspot-hints')).toBe('0');
    expect(src.searchParams.get('hide-ui')).toBe('1');
    expect(src.searchParams.get('node-id')).toBe('1-2');
    await page.keyboard.press('Escape');
    await expect(frame).toHaveCount(0);

    await page.getByLabel('Site address').fill('https://example.com/shop');
    await expect(builder.getByTestId('figma-url-error')).toContainText(
      'Enter a link to a Figma prototype (https://www.figma.com/proto/…)',
    );
    await expect(builder.getByTestId('figma-embed-url')).toHaveCount(0);
  });
});
