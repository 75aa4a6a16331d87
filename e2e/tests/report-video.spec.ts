import { resolve } from 'node:path';
import { expect, type Locator, test } from '@playwright/test';
import { CONTENT_SECONDS, reportOfOneRespondent } from './report-support.ts';
import { TMP } from './respondent-support.ts';
import { cabinetApi, login, shot } from './support.ts';

const SHOTS = resolve(TMP, 'shots-report-video');
/** When the respondent's recording reaches the content. */
const ONSET_MS = 2_000;

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

test("the report video seeks: a click on the chart, the arrow keys; a respondent's recording seeks too", async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page);
  const request = await playwright.request.newContext({ baseURL });
  const { url, researchId } = await reportOfOneRespondent(page, request, {
    name: 'Seek',
    onsetMs: ONSET_MS,
    dir: 'report-video-e2e',
  });

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
