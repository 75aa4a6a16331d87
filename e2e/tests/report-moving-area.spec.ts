import { resolve } from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { reportOfOneRespondent } from './report-support.ts';
import { TMP } from './respondent-support.ts';
import { login, shot } from './support.ts';

/**
 * Areas of interest on a video (issue 31, item 5; decision 044), on a real report (one respondent's recording
 * processed by the engine): a rectangle dragged on the first frame and made to move — a key frame at 0 s, the frame
 * scrubbed to the end, the shape dragged to the lower right, a second key frame — and a still polygon clicked point by
 * point; saved, the report is built again and lists both with their metrics; on the report's player the moving one
 * is where its key frames put it at the video's time. The drawer in English and Russian at 1440 and 390 px.
 */
const SHOTS = resolve(TMP, 'shots-report-moving-area');

/** The outline of area `n` (1-based) on the player: its rectangle's box. */
const outline = (page: Page, n: number) =>
  page
    .getByTestId('report-video')
    .locator('xpath=..')
    .getByTestId('area-outline')
    .nth(n - 1);

async function at(surface: Locator, fx: number, fy: number) {
  const box = await surface.boundingBox();
  if (!box) throw new Error('no drawing surface');
  return { x: box.x + box.width * fx, y: box.y + box.height * fy };
}

test('a moving rectangle and a polygon drawn on the report’s video, counted and shown moving', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page);
  const request = await playwright.request.newContext({ baseURL });
  const { url } = await reportOfOneRespondent(page, request, {
    name: 'Moving',
    onsetMs: 2_000,
    dir: 'report-moving-area-e2e',
  });
  await page.goto(`${url}?curr_lang=en`);
  await page.getByTestId('areas-draw').click();
  const surface = page.getByTestId('area-surface');

  // A rectangle on the first frame, a key frame at 0 s.
  let p = await at(surface, 0.1, 0.1);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  p = await at(surface, 0.35, 0.4);
  await page.mouse.move(p.x, p.y, { steps: 5 });
  await page.mouse.up();
  await expect(surface.getByTestId('area-pending')).toHaveAttribute('data-kind', 'rectangle');
  await page.getByTestId('area-key-frame').click();
  await expect(page.getByTestId('area-key-frames')).toHaveText('Key frames: 1');
  // Scrubbed to the end, the shape dragged to the lower right, a second key frame.
  await page.getByTestId('area-frame').getByRole('slider').press('End');
  await expect(page.getByTestId('area-key-frame')).not.toHaveText('Key frame at 0 s');
  p = await at(surface, 0.2, 0.25);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  p = await at(surface, 0.7, 0.75);
  await page.mouse.move(p.x, p.y, { steps: 5 });
  await page.mouse.up();
  await page.getByTestId('area-key-frame').click();
  await expect(page.getByTestId('area-key-frames')).toHaveText('Key frames: 2');
  await page.getByTestId('area-name').fill('Ball');
  await shot(page, SHOTS, 'drawer-en-1440');
  await page.getByTestId('area-add').click();
  await expect(page.getByTestId('area-drawn')).toContainText('moves: 2 key frames');

  // A polygon, point by point; a click on its first point closes it.
  await page.getByTestId('area-tool').getByText('Polygon').click();
  for (const [fx, fy] of [
    [0.6, 0.1],
    [0.9, 0.15],
    [0.75, 0.4],
    [0.6, 0.1],
  ] as const) {
    p = await at(surface, fx, fy);
    await page.mouse.click(p.x, p.y);
  }
  await expect(surface.getByTestId('area-pending')).toHaveAttribute('data-kind', 'polygon');
  await page.getByTestId('area-name').fill('Logo');
  await page.getByTestId('area-add').click();
  await expect(page.getByTestId('area-drawn')).toHaveCount(2);
  await page.getByTestId('area-save').click();

  // Built again: both listed with their metrics.
  await expect(page.getByTestId('area-row')).toHaveCount(2, { timeout: 90_000 });
  await expect(page.getByTestId('area-row').first()).toContainText('Ball');
  await expect(page.getByTestId('area-row').nth(1)).toContainText('Logo');
  await expect(page.getByTestId('area-row').first()).toContainText(/\d+% \(\d+ \/ \d+\)/);
  // The table says what each area is: the moving rectangle with its key frames, the polygon with its points.
  const ball = page.getByTestId('area-row').first();
  const logo = page.getByTestId('area-row').nth(1);
  await expect(ball.getByTestId('area-kind-shape')).toHaveText('rectangle');
  await expect(ball.getByTestId('area-kind-moving')).toHaveText('moves: 2 key frames');
  await expect(ball.getByTestId('area-window')).toHaveText(/^0–[\d.]+ s$/);
  await expect(logo.getByTestId('area-kind-shape')).toHaveText('polygon · 3 points');
  await expect(logo.getByTestId('area-kind-moving')).toHaveCount(0);
  // Their figures count fixations: the panel says which filter made them, with its settings (decision 042).
  await expect(page.getByTestId('report-areas').getByTestId('report-fixation-settings')).toContainText('30°/s');
  await expect(page.getByTestId('report-areas').getByTestId('report-fixation-filter')).toContainText(
    'I-VT (Olsen 2012)',
  );
  await page.getByTestId('report-areas').scrollIntoViewIfNeeded();
  await shot(page, SHOTS, 'areas-en-1440', { target: page.getByTestId('report-areas') });

  // On the player the moving area is where its key frames put it: top-left at the start, lower right at the end.
  const video = page.getByTestId('report-video');
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0;
  });
  await expect(outline(page, 1)).toBeVisible();
  const start = await outline(page, 1).boundingBox();
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = v.duration - 0.05;
  });
  await expect.poll(async () => (await outline(page, 1).boundingBox())?.x ?? 0).toBeGreaterThan((start?.x ?? 0) + 50);
  await expect(outline(page, 2)).toHaveAttribute('data-kind', 'polygon');

  // The drawer with the saved areas in Russian, at 1440 and 390 px, and in English at 390 px.
  await page.goto(`${url}?curr_lang=ru`);
  await page.getByTestId('areas-draw').click();
  await expect(page.getByTestId('area-drawn')).toHaveCount(2);
  await expect(page.getByTestId('area-drawn').first()).toContainText('движется');
  await shot(page, SHOTS, 'drawer-ru-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, SHOTS, 'drawer-ru-390');
  await page.goto(`${url}?curr_lang=ru`);
  const card = page.getByTestId('area-card').first();
  await expect(card.getByTestId('area-kind-moving-card')).toHaveText('движется: ключевых кадров — 2');
  await expect(page.getByTestId('area-card').nth(1).getByTestId('area-kind-shape-card')).toHaveText(
    'многоугольник · точек: 3',
  );
  await card.scrollIntoViewIfNeeded();
  await shot(page, SHOTS, 'areas-ru-390', { target: page.getByTestId('report-areas') });
  await page.goto(`${url}?curr_lang=en`);
  await page.getByTestId('areas-draw').click();
  await expect(page.getByTestId('area-drawn')).toHaveCount(2);
  await shot(page, SHOTS, 'drawer-en-390');
});
