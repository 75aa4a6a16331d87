import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { recorderChunks, respondentThroughApi, type SentEvent, TMP } from './respondent-support.ts';
import { astronautVideo, cabinetApi, login, shot } from './support.ts';

const FILES = resolve(TMP, 'report-video-e2e');
const SHOTS = resolve(TMP, 'shots-report-video');
/** The content's length, and when the respondent's recording reaches it. */
const CONTENT_SECONDS = 6;
const ONSET_MS = 2_000;

/** The research's content: a real WebM of a moving test pattern (320×240, 10 fps). */
function contentVideo(): string {
  mkdirSync(FILES, { recursive: true });
  const file = resolve(FILES, `content-${CONTENT_SECONDS}s.webm`);
  execFileSync('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=10:duration=${CONTENT_SECONDS}`],
    ...['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', file],
  ]);
  return file;
}

/**
 * Where the video is once the seek `act` starts has ended: the time of its next `seeked` event. A file the
 * browser cannot seek in (no byte ranges) answers every seek with 0.
 */
async function seekedTo(video: Locator, act: () => Promise<unknown>): Promise<number> {
  await video.evaluate((v: HTMLVideoElement) => {
    (window as unknown as { seeked: Promise<number> }).seeked = new Promise((done) =>
      v.addEventListener('seeked', () => done(v.currentTime), { once: true }),
    );
  });
  await act();
  return video.evaluate(() => (window as unknown as { seeked: Promise<number> }).seeked);
}

const seekable = (video: Locator) =>
  video.evaluate((v: HTMLVideoElement) => (v.seekable.length ? v.seekable.end(v.seekable.length - 1) : 0));

/** A launched video research, one respondent's real webcam recording processed, a report built; its page. */
async function builtReport(
  page: Page,
  request: Parameters<typeof respondentThroughApi>[0],
): Promise<{ url: string; researchId: string }> {
  const suffix = Date.now().toString(36);
  const project = await cabinetApi<{ id: string }>(page, 'POST', '/cabinet/projects/', {
    title: `Seek ${suffix}`,
    platform: 'toloka',
    respondent_language: 'en',
    audience_type: 'simple',
    flow_type: 'old',
  });
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    {
      project_id: project.id,
      campaigns_data: [{ title: `Spot ${suffix}`, content_type: 'video', settings: {} }],
    },
  );
  const researchId = created.campaigns[0]?.id ?? '';
  await page.goto(`/cabinet/campaign/${researchId}/form?curr_lang=en`);
  await page.getByTestId('media-input').setInputFiles(contentVideo());
  await expect(page.getByTestId('media-item').getByTestId('media-status')).toHaveText('Ready', { timeout: 30_000 });
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

  // A recording of a face: calibration, the content from 2 s to its end, sent in three chunks. Its events end
  // within the session's clock and its slack (10 s), as a recorder's would.
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
      { timeout: 180_000, intervals: [2_000] },
    )
    .toBe('done');
  const report = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/campaigns/${researchId}/reports/`, {
    name: 'Seek',
  });
  await expect
    .poll(async () => (await cabinetApi<{ status: string }>(page, 'GET', `/cabinet/reports/${report.id}/`)).status, {
      timeout: 120_000,
      intervals: [1_000],
    })
    .toBe('done');
  return { url: `/cabinet/campaign/${researchId}/report/${report.id}`, researchId };
}

test("the report video seeks: a click on the chart, the arrow keys; a respondent's recording seeks too", async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page);
  const request = await playwright.request.newContext({ baseURL });
  const { url, researchId } = await builtReport(page, request);

  await page.goto(`${url}?curr_lang=en`);
  const video = page.getByTestId('report-video');
  // The report page and its chart library load lazily: slow on a busy machine.
  await expect(video).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  // The whole file can be sought in, as the server answers byte ranges.
  expect(await seekable(video)).toBeCloseTo(CONTENT_SECONDS, 0);

  await test.step('a click on the chart at three quarters of its width moves the video there', async () => {
    const chart = page.getByTestId('report-chart');
    await chart.scrollIntoViewIfNeeded();
    const box = await chart.boundingBox();
    if (!box) throw new Error('no chart');
    const at = await seekedTo(video, () => page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2));
    expect(at).toBeGreaterThan(3);
    expect(at).toBeLessThan(CONTENT_SECONDS);
    await expect(page.getByTestId('report-video-time')).not.toContainText('0:00');
    await shot(page, SHOTS, 'report-video-en-1440', { target: page.getByTestId('report-curves') });

    // The arrow keys move it a second at a time from there.
    const next = await seekedTo(video, () => page.keyboard.press('ArrowRight'));
    expect(next).toBeCloseTo(Math.min(at + 1, CONTENT_SECONDS), 1);
    const back = await seekedTo(video, () => page.keyboard.press('ArrowLeft'));
    expect(back).toBeCloseTo(next - 1, 1);
    // The player's own seeking sticks too.
    const set = await seekedTo(video, () => video.evaluate((v: HTMLVideoElement) => (v.currentTime = 4.5)));
    expect(set).toBeCloseTo(4.5, 1);
  });

  await test.step("the respondent's recording, served chunk by chunk, seeks to the content's start", async () => {
    // The recording as the playback dialog plays it (its three chunks joined by the server).
    const sessions = await cabinetApi<{ items: { segments: { url: string }[] }[] }>(
      page,
      'GET',
      `/cabinet/campaigns/${researchId}/respondent-sessions/`,
    );
    const src = sessions.items[0]?.segments[0]?.url ?? '';
    expect(src).toMatch(/\/recordings\/0\/$/);
    await page.evaluate((url) => {
      const element = document.createElement('video');
      element.src = url;
      element.preload = 'metadata';
      element.dataset.testid = 'recording-check';
      document.body.append(element);
    }, src);
    const recording = page.getByTestId('recording-check');
    await expect.poll(() => recording.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    expect(await seekable(recording)).toBeGreaterThan(ONSET_MS / 1000);
    const at = await seekedTo(recording, () =>
      recording.evaluate((v: HTMLVideoElement, onset: number) => (v.currentTime = onset), ONSET_MS / 1000),
    );
    expect(at).toBeCloseTo(ONSET_MS / 1000, 1);
    await recording.evaluate((v) => v.remove());
  });

  await test.step('the same in Russian, and on a phone', async () => {
    for (const [language, width] of [
      ['ru', 1440],
      ['en', 390],
      ['ru', 390],
    ] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto(`${url}?curr_lang=${language}`);
      await expect(video).toBeVisible({ timeout: 60_000 });
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
      const chart = page.getByTestId('report-chart');
      await chart.scrollIntoViewIfNeeded();
      const box = await chart.boundingBox();
      if (!box) throw new Error('no chart');
      const at = await seekedTo(video, () => page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2));
      expect(at, `${language} ${width}`).toBeGreaterThan(3);
      await shot(page, SHOTS, `report-video-${language}-${width}`, { target: page.getByTestId('report-curves') });
    }
  });
  await request.dispose();
});
