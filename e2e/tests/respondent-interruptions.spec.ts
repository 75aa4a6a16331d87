// The respondent journey interrupted (the specs of respondent.spec.ts's launched spot): the camera refused, no face in
// front of it, its signal lost mid-video; a reload mid-video and the connection dropped while the recording is sent,
// with nothing lost; a phone turned sideways.
import { expect, type Page } from '@playwright/test';
import {
  consent,
  faceCheckAndCalibration,
  launchedSpot,
  recordUploads,
  respondentText,
  RESPONDENT_SHOTS as SHOTS,
  savedSession,
  sessionState,
  test,
} from './respondent-support.ts';
import { login, shot } from './support.ts';

const en = (path: string): string => respondentText(path);

test.use({ actionTimeout: 15_000 });
// Independent tests (each launches its own project): they spread over the workers.
test.describe.configure({ mode: 'parallel' });

test.describe('the camera', () => {
  test.describe('refused', () => {
    test.use({ camera: 'denied' });
    test('the camera error of the spec', async ({ page, respondent }) => {
      test.setTimeout(120_000);
      await login(page);
      const { token } = await launchedSpot(page, { faceChecker: false });
      await respondent.goto(`/project-research/${token}`);
      await consent(respondent);
      await expect(respondent.getByTestId('camera-error')).toBeVisible({ timeout: 20_000 });
      await expect(respondent.getByTestId('camera-error')).toContainText(
        'Could not access the camera. Refresh the page and try again.',
      );
      await shot(respondent, SHOTS, '15-camera-refused-en');
    });
  });

  test.describe('without a face', () => {
    test.use({ camera: 'noFace' });
    test('the face check warns and the journey waits', async ({ page, respondent }) => {
      test.setTimeout(120_000);
      await login(page);
      const { token } = await launchedSpot(page);
      await respondent.goto(`/project-research/${token}`);
      await consent(respondent);
      const status = respondent.getByTestId('face-check-status');
      await expect(status).toHaveAttribute('data-status', 'no_face', { timeout: 60_000 });
      await respondent.waitForTimeout(2000);
      await expect(respondent.getByTestId('calibration-intro')).toHaveCount(0);
      await shot(respondent, SHOTS, '16-no-face-en');
    });
  });

  test('the signal is lost mid-video: the camera-lost screen, then the start page', async ({ page, respondent }) => {
    test.setTimeout(180_000);
    await login(page);
    const { token } = await launchedSpot(page, { faceChecker: false, videoSeconds: 30 });
    await respondent.goto(`/project-research/${token}`);
    await consent(respondent);
    await faceCheckAndCalibration(respondent, { faceCheck: false });
    const session = await savedSession(respondent, token);
    await respondent.evaluate(() => {
      const video = document.querySelector('[data-testid="camera-monitor"]') as HTMLVideoElement;
      for (const track of (video.srcObject as MediaStream).getTracks()) track.stop();
    });
    await expect(respondent.getByTestId('camera-lost')).toBeVisible({ timeout: 5000 });
    await expect(respondent.getByTestId('camera-lost')).toContainText(en('cameraLost.title'));
    await shot(respondent, SHOTS, '17-camera-lost-en', { closeNotifications: false });
    await expect(respondent.getByTestId('consent-screen')).toBeVisible({ timeout: 15_000 });
    const state = await sessionState(respondent, session);
    expect(state.body.status).toBe('dropped_out');
  });
});

test.describe('nothing is lost', () => {
  /**
   * A launched spot of `videoSeconds` without the face check, and a respondent in Russian through the consent and
   * the calibration to its video: what the page sends from then on, the session, the video.
   */
  async function intoTheVideo(page: Page, respondent: Page, videoSeconds: number) {
    await login(page);
    const { token } = await launchedSpot(page, { faceChecker: false, videoSeconds });
    const uploads = recordUploads(respondent);
    await respondent.goto(`/project-research/${token}?curr_lang=ru`);
    await consent(respondent);
    await faceCheckAndCalibration(respondent, { faceCheck: false });
    const session = await savedSession(respondent, token);
    return { uploads, session, video: respondent.getByTestId('research-video') };
  }

  test('a reload mid-video resumes at the research with a new segment; every chunk and batch arrives', async ({
    page,
    respondent,
  }) => {
    test.setTimeout(240_000);
    const { uploads, session, video } = await intoTheVideo(page, respondent, 12);
    // Mid-video: it has played two seconds of its twelve, and the recording's first chunks are stored.
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(2);
    await expect.poll(() => [...uploads.chunks].some((c) => c.startsWith('0/')), { timeout: 30_000 }).toBe(true);
    // The page warns before it is left; the respondent confirms.
    respondent.on('dialog', (dialog) => void dialog.accept());
    await respondent.reload();
    await expect(respondent.getByTestId('resume-screen')).toBeVisible({ timeout: 20_000 });
    const middle = await sessionState(respondent, session);
    expect(middle.body.step).toBe('content');
    expect(middle.body.research_index).toBe(0);
    await expect(respondent.getByTestId('resume-continue')).toHaveText('Продолжить');
    await shot(respondent, SHOTS, '18-resume-ru');
    await respondent.getByTestId('resume-continue').click();
    await expect(respondent.getByTestId('checkpoint')).toBeVisible();
    await shot(respondent, SHOTS, '18b-checkpoint-ru', { closeNotifications: false });
    await expect(respondent.getByTestId('video-research')).toBeVisible({ timeout: 20_000 });
    await expect(respondent.getByTestId('completion-code')).toBeVisible({ timeout: 60_000 });
    await expect(respondent.getByTestId('copy-code')).toHaveText('Скопировать код');
    await shot(respondent, SHOTS, '20-code-ru');
    const end = await sessionState(respondent, session);
    expect(end.body.status).toBe('completed');
    expect(end.body.segments.map((s) => s.segment)).toEqual([0, 1]);
    expect(end.body.segments.every((s) => s.chunks > 0)).toBe(true);
    // Every chunk and batch the server acknowledged is stored, in each segment's run of numbers (the completion checked
    // the runs have no gap). An answer that comes back while the page reloads never reaches the test's listener, so
    // for the interrupted segment and the batches the server may hold one more than the test saw acknowledged; after
    // the reload, exactly what was seen.
    const seen = (segment: number) =>
      [...uploads.chunks].filter((c) => c.startsWith(`${segment}/`)).map((c) => Number(c.split('/')[1]));
    const first = end.body.segments[0] as { chunks: number };
    const second = end.body.segments[1] as { chunks: number };
    expect(Math.max(...seen(0))).toBeLessThan(first.chunks);
    expect(first.chunks - seen(0).length).toBeGreaterThanOrEqual(0);
    expect(first.chunks - seen(0).length).toBeLessThanOrEqual(1);
    expect(seen(1).sort((a, b) => a - b)).toEqual([...Array(second.chunks).keys()]);
    const batches = [...uploads.batches].sort((a, b) => a - b);
    expect(batches.every((b) => b < end.body.next_event_seq)).toBe(true);
    expect(end.body.next_event_seq - batches.length).toBeGreaterThanOrEqual(0);
    expect(end.body.next_event_seq - batches.length).toBeLessThanOrEqual(1);
  });

  test('the connection drops for 10 s while the recording is sent: it completes with nothing lost', async ({
    page,
    respondent,
    respondentContext,
  }) => {
    test.setTimeout(240_000);
    const { uploads, session, video } = await intoTheVideo(page, respondent, 6);
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0.3);
    await respondentContext.setOffline(true);
    const offlineAt = Date.now();
    await expect(respondent.getByTestId('save-screen')).toBeVisible({ timeout: 30_000 });
    await expect(respondent.getByTestId('save-screen')).toContainText('Сохраняем результаты');
    await shot(respondent, SHOTS, '19-saving-offline-ru');
    // Ten seconds without a connection in all: the end of the video and the first part of the sending.
    await respondent.waitForTimeout(Math.max(0, 10_000 - (Date.now() - offlineAt)));
    await expect(respondent.getByTestId('completion-code')).toHaveCount(0);
    await expect(respondent.getByTestId('save-retry')).toHaveCount(0);
    await respondentContext.setOffline(false);
    await expect(respondent.getByTestId('completion-code')).toBeVisible({ timeout: 60_000 });
    const end = await sessionState(respondent, session);
    expect(end.body.status).toBe('completed');
    expect(end.body.segments.reduce((sum, s) => sum + s.chunks, 0)).toBe(uploads.chunks.size);
    expect(end.body.next_event_seq).toBe(uploads.batches.size);
  });
});

test.describe('on a phone', () => {
  test.use({ phone: true });
  test('held upright for a vertical research it runs; turned sideways it asks to rotate', async ({
    page,
    respondent,
  }) => {
    test.setTimeout(180_000);
    await login(page);
    const { token } = await launchedSpot(page, { orientation: 'vertical', videoSeconds: 10 });
    await respondent.goto(`/project-research/${token}?curr_lang=ru`);
    await shot(respondent, SHOTS, '21-phone-consent-ru');
    await respondent.goto(`/project-research/${token}`);
    await shot(respondent, SHOTS, '22-phone-consent-en');
    await consent(respondent);
    await expect(respondent.getByTestId('face-check-status')).toHaveAttribute('data-status', 'ok', {
      timeout: 60_000,
    });
    await shot(respondent, SHOTS, '23-phone-after-face-check-en');
    await faceCheckAndCalibration(respondent, { faceCheck: false });
    await expect(respondent.getByTestId('rotate-screen')).toHaveCount(0);
    await respondent.setViewportSize({ width: 844, height: 390 });
    await expect(respondent.getByTestId('rotate-screen')).toBeVisible();
    await expect(respondent.getByTestId('rotate-screen')).toContainText(en('rotate.vertical'));
    await shot(respondent, SHOTS, '24-phone-rotate-en', { closeNotifications: false });
    await respondent.setViewportSize({ width: 390, height: 844 });
    await expect(respondent.getByTestId('rotate-screen')).toHaveCount(0);
    const code = respondent.getByTestId('completion-code');
    await expect(code).toBeVisible({ timeout: 60_000 });
    // The short code on a 390-px phone: whole on one line, nothing cut off.
    await expect(code).toHaveText(/^[2-9A-HJKMNP-Z]{7}-[2-9A-HJKMNP-Z]{7}$/);
    expect(await code.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getClientRects().length === 1)).toBe(
      true,
    );
    await shot(respondent, SHOTS, '25-phone-code-en');
  });
});
