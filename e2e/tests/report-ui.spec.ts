import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { recorderChunks, respondentThroughApi, type SentEvent, TMP } from './respondent-support.ts';
import { astronautVideo, cabinetApi, login, shot } from './support.ts';

/**
 * The report page's small defects of issue 28 (items 2 and 7), on a real report: a video research, one respondent's
 * webcam recording processed by the engine, a report built. Its one respondent is fewer than 5: the tooltip says why
 * the interval is faint. In Russian: one name for the report type on the list and the page, the areas panel speaking
 * of the video, the respondents table whole at 1440 px, cards at 390 px. (The recording has no gaze, so no heatmap:
 * its "0,7" and "пикс." are the Vitest tests' — format.test.ts, report-locale.test.ts.)
 */
const FILES = resolve(TMP, 'report-ui-e2e');
const SHOTS = resolve(TMP, 'shots-report-ui');
const CONTENT_SECONDS = 6;
const ONSET_MS = 2_500;

function contentVideo(): string {
  mkdirSync(FILES, { recursive: true });
  const file = resolve(FILES, `content-${CONTENT_SECONDS}s.webm`);
  execFileSync('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=10:duration=${CONTENT_SECONDS}`],
    ...['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', file],
  ]);
  return file;
}

/** A launched video research, one respondent's recording processed through the respondent API, a report built. */
async function builtReport(page: Page, request: Parameters<typeof respondentThroughApi>[0]) {
  const suffix = Date.now().toString(36);
  const project = await cabinetApi<{ id: string }>(page, 'POST', '/cabinet/projects/', {
    title: `Report UI ${suffix}`,
    platform: 'toloka',
    respondent_language: 'en',
    audience_type: 'simple',
    flow_type: 'old',
  });
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    { project_id: project.id, campaigns_data: [{ title: `Spot ${suffix}`, content_type: 'video', settings: {} }] },
  );
  const researchId = created.campaigns[0]?.id ?? '';
  await page.goto(`/cabinet/campaign/${researchId}/form?curr_lang=en`);
  await page.getByTestId('media-input').setInputFiles(contentVideo());
  await expect(page.getByTestId('media-item').getByTestId('media-status')).toHaveText('Ready', { timeout: 60_000 });
  const scenario = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/projects/${project.id}/scenarios/`, {
    campaign_ids: [researchId],
  });
  const link = await cabinetApi<{ token: string }>(
    page,
    'POST',
    `/cabinet/scenarios/${scenario.id}/project-accessor-links/`,
    { quota_size: null, is_use_face_checker: false },
  );
  await cabinetApi(page, 'POST', `/cabinet/projects/${project.id}/launch/`, {});
  const chunks = recorderChunks(readFileSync(astronautVideo(FILES, 9)), 3);
  const end = ONSET_MS + CONTENT_SECONDS * 1000;
  const events: SentEvent[] = [
    { type: 'segment_start', t: 0, segment: 0 },
    { type: 'screen', t: 0, width: 1280, height: 800, device_pixel_ratio: 1 },
    { type: 'step', t: 10, step: 'calibration' },
    { type: 'calibration_start', t: 20 },
    { type: 'calibration_dot', t: 30, x: 640, y: 400 },
    { type: 'calibration_end', t: 500 },
    { type: 'step', t: 550, step: 'content' },
    { type: 'research_start', t: ONSET_MS, campaign_id: researchId, index: 0 },
    // The video's own clock (its play, a tick a second, its end): the curves' seconds.
    { type: 'video_play', t: ONSET_MS + 50, time: 0 },
    ...Array.from({ length: CONTENT_SECONDS - 1 }, (_, i) => ({
      type: 'video_time',
      t: ONSET_MS + 50 + (i + 1) * 1000,
      time: i + 1,
    })),
    { type: 'video_ended', t: end - 10, time: CONTENT_SECONDS },
    { type: 'research_end', t: end, campaign_id: researchId },
    { type: 'step', t: end + 100, step: 'end' },
  ];
  const done = await respondentThroughApi(request, link.token, { chunks, events, participant: 'viewer-1' });
  expect(done.outcome).toBe('complete');
  await expect
    .poll(
      async () =>
        (
          await cabinetApi<{ items: { status: string }[] }>(
            page,
            'GET',
            `/videoprocessor/campaigns-processes-list/?campaign=${researchId}`,
          )
        ).items[0]?.status,
      { timeout: 240_000, intervals: [2_000] },
    )
    .toBe('done');
  const report = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/campaigns/${researchId}/reports/`, {
    name: 'Wave',
  });
  await expect
    .poll(async () => (await cabinetApi<{ status: string }>(page, 'GET', `/cabinet/reports/${report.id}/`)).status, {
      timeout: 120_000,
      intervals: [1_000],
    })
    .toBe('done');
  return { url: `/cabinet/campaign/${researchId}/report/${report.id}`, researchId };
}

test('the report page in Russian at 1440 and 390 px: one type name, the video’s areas, the whole table, N < 5 said', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(480_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page);
  const request = await playwright.request.newContext({ baseURL });
  const { url, researchId } = await builtReport(page, request);

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
