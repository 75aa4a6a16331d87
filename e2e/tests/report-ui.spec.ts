import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { reportOfOneRespondent } from './report-support.ts';
import { TMP } from './respondent-support.ts';
import { login, shot } from './support.ts';

/**
 * The report page's small defects of issue 28 (items 2 and 7), on a real report: a video research, one respondent's
 * webcam recording processed by the engine, a report built. Its one respondent is fewer than 5: the tooltip says why
 * the interval is faint. In Russian: one name for the report type on the list and the page, the areas panel speaking
 * of the video, the respondents table whole at 1440 px, cards at 390 px. (The recording has no gaze, so no heatmap:
 * its "0,7" and "пикс." are the Vitest tests' — format.test.ts, report-locale.test.ts.)
 */
const SHOTS = resolve(TMP, 'shots-report-ui');

test('the report page in Russian at 1440 and 390 px: one type name, the video’s areas, the whole table, N < 5 said', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page);
  const request = await playwright.request.newContext({ baseURL });
  const { url, researchId } = await reportOfOneRespondent(page, request, {
    name: 'Wave',
    onsetMs: 2_500,
    dir: 'report-ui-e2e',
  });

  // The list and the page name the report type alike.
  await page.goto(`/cabinet/campaign/${researchId}/statistic?curr_lang=ru`);
  await expect(page.getByTestId('report-row')).toContainText('Исходные значения');
  await page.goto(`${url}?curr_lang=ru`);
  await expect(page.getByTestId('report-type')).toHaveText('Исходные значения', { timeout: 30_000 });

  await expect(page.getByTestId('areas-hint')).toContainText('видео');
  await expect(page.getByTestId('areas-hint')).not.toContainText('изображени');

  // The respondents table is whole: its last column within the table's scrolling frame, nothing to scroll to.
  const table = page.getByTestId('report-people-table');
  const fit = await table.evaluate((t) => {
    const frame = (t.closest('.mantine-ScrollArea-viewport') as HTMLElement).getBoundingClientRect();
    const last = (t.querySelector('thead th:last-child') as HTMLElement).getBoundingClientRect();
    return { last: last.right, frame: frame.right, width: t.scrollWidth, visible: Math.round(frame.width) };
  });
  expect(fit.last).toBeLessThanOrEqual(fit.frame + 0.5);
  expect(fit.width).toBeLessThanOrEqual(fit.visible);

  // One respondent: the tooltip says why the interval is faint.
  const chart = page.getByTestId('report-chart');
  const box = await chart.boundingBox();
  if (!box) throw new Error('chart not laid out');
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await expect(page.getByText(/Здесь меньше 5 респондентов/)).toBeVisible();
  await shot(page, SHOTS, 'report-ru-1440');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${url}?curr_lang=ru`);
  await expect(page.getByTestId('report-person-card')).toHaveCount(1);
  await expect(page.getByTestId('report-people-table')).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, SHOTS, 'report-ru-390');
});
