import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { astronautVideo, login } from './support.ts';

const FILES = resolve(import.meta.dirname, '../../.tmp/demo-e2e');

test.use({ viewport: { width: 1440, height: 900 }, actionTimeout: 15_000 });

test('an uploaded clip is analysed in demo mode: curves, face box, summary, downloads', async ({ page }) => {
  test.setTimeout(60_000);
  const video = astronautVideo(FILES);
  await login(page);
  await page.goto('/cabinet/demo');
  await expect(page.getByRole('heading', { name: 'Demo mode' })).toBeVisible();
  await expect(page.getByTestId('demo-empty')).toBeVisible();

  await page.getByTestId('demo-input').setInputFiles(video);
  const item = page.getByTestId('demo-item');
  await expect(item).toHaveCount(1);
  await expect(item.getByText('astronaut.webm')).toBeVisible();
  // The list polls while the engine works; a fresh engine process loads its models first.
  await expect(item.getByTestId('demo-status')).toHaveText('Done', { timeout: 45_000 });

  // The upload selected the new analysis: its result opens below the list.
  const result = page.getByTestId('demo-result');
  await expect(result).toBeVisible();
  await expect(result.getByTestId('demo-summary')).toContainText('Face found');
  await expect(result.getByTestId('demo-summary')).toContainText('Yes');
  // The charts are ECharts drawn as SVG: each line one stroked path, 1.8 px wide.
  const lines = (testId: string) => result.getByTestId(testId).locator('svg path[fill="none"][stroke-width="1.8"]');
  const expressions = result.getByTestId('chart-expressions');
  await expect(lines('chart-expressions')).toHaveCount(7);
  expect(await lines('chart-expressions').first().getAttribute('d')).toMatch(/^M[\d.]+[ ,][\d.]+L/);
  await expect(lines('chart-metrics')).toHaveCount(3);
  // The face's geometry: smile and distraction, head movement (a still photo: a flat line near 0 °/s).
  await expect(lines('chart-face')).toHaveCount(2);
  await expect(lines('chart-head')).toHaveCount(1);
  await expect(result.getByTestId('demo-summary')).toContainText(/Head movement\s*\d+\.\d°\/s/);
  // The face box is drawn over the video at its current time.
  await expect(result.getByTestId('face-box')).toHaveCount(1);

  // Clicking the chart (a slider over the video's time) seeks the video.
  await expect(expressions).toHaveRole('slider');
  const box = await expressions.boundingBox();
  if (!box) throw new Error('chart not laid out');
  await expressions.click({ position: { x: box.width * 0.75, y: box.height / 2 } });
  await expect
    .poll(() => page.getByTestId('demo-video').evaluate((v) => (v as HTMLVideoElement).currentTime))
    .toBeGreaterThan(0.8);

  const csv = await page.request.get(
    (await result.getByRole('link', { name: 'Frames as CSV' }).getAttribute('href')) ?? '',
  );
  expect(csv.status()).toBe(200);
  expect((await csv.text()).split('\n')[0]).toContain('time,face_count,flags');
});
