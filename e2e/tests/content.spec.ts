import { resolve } from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { cabinetApi, createResearch, login, shot } from './support.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(ROOT, '.tmp/shots-content');
/** Real photographs (1920 px wide JPEGs). */
const SAMPLES = resolve(ROOT, 'node_modules/@vladmandic/face-api/demo');
const sample = (n: number) => resolve(SAMPLES, `sample${n}.jpg`);

/** A zone's size as % and px: about 30 % × 40 % of a 1920 × 1350 picture (the mouse lands within a pixel). */
const ZONE_SIZE = /^(29\.\d|30(\.\d)?)% × (39\.\d|40(\.\d)?)% · 5[67]\d × 5[34]\d px$/;

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

interface Zone {
  name: string;
  description: string;
  x: number;
  y: number;
  width: number;
  height: number;
}
interface ResearchContent {
  picture_gallery: { items: { image: string; duration_seconds: number }[] };
  shelf_content_scenario: {
    id: string;
    name: string;
    duration_seconds: number;
    auto_display: boolean;
    image: string;
    zones: Zone[];
  }[];
  shelf_setting: { isRandomOrder: boolean };
}

/** A draft project with a research of the given type (a shelf research only comes from the wizard). */
function newResearch(page: Page, contentType: 'pictures' | 'shelf'): Promise<string> {
  return createResearch(page, contentType, { host: 'Content host', title: contentType, fromWizard: true });
}

async function upload(page: Page, file: string, count: number) {
  await page.getByTestId('media-input').setInputFiles(file);
  await expect(page.getByTestId('media-section').getByTestId('media-item')).toHaveCount(count, { timeout: 20_000 });
}

function valuesOf(inputs: Locator): Promise<string[]> {
  return inputs.evaluateAll((elements) => elements.map((element) => (element as HTMLInputElement).value));
}

async function save(page: Page) {
  await page.getByTestId('campaign-save').click();
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'The research is saved' })).toBeVisible();
  await expect(page.getByTestId('unsaved-changes')).toHaveCount(0);
}

test('pictures gallery: a duration and the order are saved with the research', async ({ page }) => {
  test.setTimeout(90_000);
  await login(page);
  const id = await newResearch(page, 'pictures');
  await page.goto(`/cabinet/campaign/${id}/form`);
  const gallery = page.getByTestId('gallery-editor');
  await expect(gallery.getByTestId('gallery-empty')).toContainText('Upload pictures above');

  await test.step('each uploaded picture joins the end of the gallery with 10 s', async () => {
    await upload(page, sample(1), 1);
    await upload(page, sample(2), 2);
    await expect(gallery.getByTestId('gallery-row')).toHaveCount(2);
    await expect(gallery.getByTestId('gallery-name')).toHaveText(['sample1.jpg', 'sample2.jpg']);
    await expect.poll(() => valuesOf(gallery.getByTestId('gallery-duration'))).toEqual(['10', '10']);
    await expect(gallery.getByTestId('gallery-total')).toHaveText('Total: 20 s');
    await expect(gallery.getByTestId('media-thumb')).toHaveCount(2);
  });

  await test.step('a duration out of range is refused under its input; a valid one counts in the total', async () => {
    const second = gallery.getByTestId('gallery-duration').nth(1);
    await second.fill('0');
    await expect(gallery.getByTestId('gallery-row').nth(1)).toContainText('must be between 1 and 600');
    await second.fill('70');
    await expect(gallery.getByTestId('gallery-row').nth(1)).not.toContainText('must be between');
    await expect(gallery.getByTestId('gallery-total')).toHaveText('Total: 1 min 20 s');
  });

  await test.step('the second picture moves up', async () => {
    await gallery.getByTestId('gallery-move-up').nth(1).click();
    await expect(gallery.getByTestId('gallery-name')).toHaveText(['sample2.jpg', 'sample1.jpg']);
    await expect.poll(() => valuesOf(gallery.getByTestId('gallery-duration'))).toEqual(['70', '10']);
    await expect(gallery.getByTestId('gallery-position')).toHaveText(['1', '2']);
    await shot(page, SHOTS, '01-gallery-edited', { target: gallery });
  });

  await test.step('saved, and the same after a reload', async () => {
    await save(page);
    await page.reload();
    await expect(gallery.getByTestId('gallery-name')).toHaveText(['sample2.jpg', 'sample1.jpg']);
    await expect.poll(() => valuesOf(gallery.getByTestId('gallery-duration'))).toEqual(['70', '10']);
    await expect(gallery.getByTestId('gallery-total')).toHaveText('Total: 1 min 20 s');
    const research = await cabinetApi<ResearchContent>(page, 'GET', `/cabinet/campaigns/${id}/`);
    expect(research.picture_gallery.items.map((item) => item.duration_seconds)).toEqual([70, 10]);
    await shot(page, SHOTS, '02-gallery-reloaded', { target: gallery });
  });
});

/** Drags with the mouse over the zone canvas from one point to another (fractions of the image). */
async function drawZone(page: Page, canvas: Locator, from: [number, number], to: [number, number]) {
  await canvas.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the zone canvas is not visible');
  const at = ([x, y]: [number, number]) => [box.x + box.width * x, box.y + box.height * y] as const;
  await page.mouse.move(...at(from));
  await page.mouse.down();
  await page.mouse.move(...at([(from[0] + to[0]) / 2, (from[1] + to[1]) / 2]), { steps: 4 });
  await page.mouse.move(...at(to), { steps: 4 });
  await page.mouse.up();
}

test('shelf: zones are drawn with the mouse, their descriptions are unique, and they are saved', async ({ page }) => {
  test.setTimeout(90_000);
  await login(page);
  const id = await newResearch(page, 'shelf');
  await page.goto(`/cabinet/campaign/${id}/form`);
  const shelf = page.getByTestId('shelf-editor');
  await expect(shelf.getByTestId('shelf-no-images')).toBeVisible();

  await test.step('an image is uploaded and a shelf added with it', async () => {
    await upload(page, sample(3), 1);
    await expect(shelf.getByTestId('shelf-no-images')).toHaveCount(0);
    await shelf.getByTestId('shelf-add').click();
    const display = shelf.getByTestId('shelf-display');
    await expect(display).toHaveCount(1);
    await expect(display.getByTestId('shelf-name')).toBeFocused();
    await display.getByTestId('shelf-name').fill('Dairy shelf');
    await display.getByTestId('shelf-task').fill('Find the yogurt you would buy');
    await expect(display.getByTestId('shelf-duration')).toHaveValue('10');
    await expect(display.getByTestId('shelf-image')).toHaveValue('sample3.jpg');
    await shelf.getByRole('switch', { name: 'Show shelves in random order' }).check();
  });

  const canvas = shelf.getByTestId('zone-canvas');
  const modal = page.getByRole('dialog');
  const rows = shelf.getByTestId('zone-row');

  await test.step('a rectangle drawn on the image asks for the name and description of the zone', async () => {
    await expect(canvas).toBeVisible();
    await drawZone(page, canvas, [0.1, 0.2], [0.4, 0.6]);
    await expect(modal).toBeVisible();
    // About 30 % × 40 % of a 1920 × 1350 picture: about 576 × 540 px.
    await expect(page.getByTestId('zone-modal-size')).toHaveText(ZONE_SIZE);
    await page.getByTestId('zone-modal-name').fill('Brand A');
    await page.getByTestId('zone-modal-description').fill('Brand A yogurt');
    await page.getByTestId('zone-modal-add').click();
    await expect(modal).toHaveCount(0);
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByTestId('zone-name')).toHaveValue('Brand A');
    await expect(rows.first().getByTestId('zone-size')).toHaveText(ZONE_SIZE);
    await expect(shelf.getByTestId('zone-box')).toHaveCount(1);
  });

  await test.step('a second zone with the same description is refused until it differs', async () => {
    await drawZone(page, canvas, [0.55, 0.3], [0.9, 0.8]);
    await page.getByTestId('zone-modal-name').fill('Brand B');
    await page.getByTestId('zone-modal-description').fill('  brand a   YOGURT ');
    await expect(modal).toContainText('Zone descriptions must be unique');
    await expect(page.getByTestId('zone-modal-add')).toBeDisabled();
    await page.getByTestId('zone-modal-description').fill('Brand B yogurt');
    await expect(modal).not.toContainText('must be unique');
    await page.getByTestId('zone-modal-add').click();
    await expect(rows).toHaveCount(2);
  });

  await test.step('a description edited in the list to repeat another is marked, and blocks the save', async () => {
    const second = rows.nth(1);
    await second.getByTestId('zone-description').fill('brand a yogurt');
    await expect(second).toContainText('Zone descriptions must be unique');
    await expect(rows.first()).not.toContainText('must be unique');
    await shot(page, SHOTS, '03-shelf-duplicate', { target: shelf.getByTestId('shelf-display') });
    await page.getByTestId('campaign-save').click();
    await expect(second).toContainText('Zone descriptions must be unique');
    await expect(page.getByTestId('unsaved-changes')).toBeVisible();
    await second.getByTestId('zone-description').fill('Brand B yogurt');
    await expect(second).not.toContainText('must be unique');
  });

  await test.step('a click selects a zone; the selected zone can be deleted', async () => {
    await drawZone(page, canvas, [0.45, 0.05], [0.5, 0.12]);
    await page.getByTestId('zone-modal-name').fill('Spare');
    await page.getByTestId('zone-modal-description').fill('Spare zone');
    await page.getByTestId('zone-modal-add').click();
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(2)).toHaveAttribute('data-selected', 'true');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the zone canvas is not visible');
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.3);
    await expect(rows.nth(0)).toHaveAttribute('data-selected', 'true');
    await rows.nth(2).getByTestId('zone-delete').click();
    await expect(rows).toHaveCount(2);
  });

  await test.step('saved, and the zones are there after a reload', async () => {
    await save(page);
    await page.reload();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByTestId('zone-name')).toHaveValue('Brand A');
    await expect(rows.nth(0).getByTestId('zone-description')).toHaveValue('Brand A yogurt');
    await expect(rows.nth(1).getByTestId('zone-name')).toHaveValue('Brand B');
    await expect(rows.nth(1).getByTestId('zone-description')).toHaveValue('Brand B yogurt');
    await expect(shelf.getByTestId('zone-box')).toHaveCount(2);
    await expect(shelf.getByTestId('shelf-name')).toHaveValue('Dairy shelf');
    await expect(shelf.getByTestId('shelf-random-order')).toBeChecked();

    const research = await cabinetApi<ResearchContent>(page, 'GET', `/cabinet/campaigns/${id}/`);
    expect(research.shelf_setting.isRandomOrder).toBe(true);
    const [display] = research.shelf_content_scenario;
    expect(display?.name).toBe('Dairy shelf');
    expect(display?.duration_seconds).toBe(10);
    expect(display?.auto_display).toBe(true);
    const zones = display?.zones ?? [];
    expect(zones.map((zone) => zone.name)).toEqual(['Brand A', 'Brand B']);
    // Fractions of the image, rounded to 4 decimals, where the mouse went (within a pixel or two).
    for (const zone of zones) {
      for (const value of [zone.x, zone.y, zone.width, zone.height]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
        expect(Number(value.toFixed(4))).toBe(value);
      }
    }
    expect(zones[0]?.x).toBeCloseTo(0.1, 2);
    expect(zones[0]?.y).toBeCloseTo(0.2, 2);
    expect(zones[0]?.width).toBeCloseTo(0.3, 2);
    expect(zones[0]?.height).toBeCloseTo(0.4, 2);
    expect(zones[1]?.x).toBeCloseTo(0.55, 2);
    expect(zones[1]?.height).toBeCloseTo(0.5, 2);
    await shot(page, SHOTS, '04-shelf-reloaded', { target: shelf.getByTestId('shelf-display') });
  });
});
