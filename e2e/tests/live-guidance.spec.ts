import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import {
  consent,
  contentVideo,
  launchedVideoProject,
  recordUploads,
  type SentEvent,
  TMP,
} from './respondent-support.ts';
import { ASTRONAUT, login, shot } from './support.ts';

/**
 * Live guidance (issue 31, item 7; decision 045): a respondent whose face is in the picture for the face check, then
 * far from the camera (or lost) in turns, sees the notice during the calibration and the content, in the face check's
 * words, and the page logs each change of it.
 */
const SHOTS = resolve(TMP, 'shots-live-guidance');
const LOCALES = resolve(import.meta.dirname, '../../apps/web/src/i18n/locales');
const text = (ns: string, path: string, lang: string): string => {
  let node: unknown = JSON.parse(readFileSync(resolve(LOCALES, `${lang}/${ns}.json`), 'utf8'));
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'string') throw new Error(`no ${lang}/${ns}:${path}`);
  return node;
};

const FIT = 'scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2,setsar=1';
/**
 * The astronaut as the face check wants her for 6 s, then 14 s far away (the picture shrunk to 110 px in a light grey
 * frame, so that the frame is not too dark: her face about 40 px wide), looped by Chromium.
 */
function nearThenFar(): string {
  const dir = resolve(TMP, 'fake-camera');
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, 'guidance-near-then-far-20s.y4m');
  const filter = `[0]${FIT}[a];[1]scale=110:110,pad=640:480:(ow-iw)/2:(oh-ih)/2:color=0xb4b4b4,setsar=1[b];[a][b]concat=n=2:v=1`;
  execFileSync('ffmpeg', [
    ...['-y', '-loglevel', 'error'],
    ...['-loop', '1', '-t', '6', '-i', ASTRONAUT, '-loop', '1', '-t', '14', '-i', ASTRONAUT],
    ...['-filter_complex', `${filter},format=yuv420p`, '-r', '15', file],
  ]);
  return file;
}

const test = base.extend<{ phone: boolean; respondentContext: BrowserContext; respondent: Page }>({
  phone: [false, { option: true }],
  respondentContext: async ({ playwright, launchOptions, baseURL, phone }, use) => {
    const browser = await playwright.chromium.launch({
      ...launchOptions,
      args: [
        ...(launchOptions.args ?? []),
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${nearThenFar()}`,
      ],
    });
    const context = await browser.newContext({
      baseURL,
      ...(phone
        ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
        : { viewport: { width: 1280, height: 800 } }),
    });
    await use(context);
    await browser.close();
  },
  respondent: async ({ respondentContext }, use) => {
    await use(await respondentContext.newPage());
  },
});

test.use({ actionTimeout: 15_000 });

/** The face check passes (the face is in the picture), the calibration starts. */
async function toCalibration(page: Page, respondent: Page, lang: string) {
  await login(page);
  const { token } = await launchedVideoProject(page, {
    title: 'Guided spot',
    video: contentVideo(resolve(TMP, 'respondent-e2e'), 40),
  });
  await respondent.goto(`/project-research/${token}?participant_id=guided-1&curr_lang=${lang}`);
  await consent(respondent);
  await expect(respondent.getByTestId('face-check-status')).toHaveAttribute('data-status', 'ok', { timeout: 90_000 });
  await expect(respondent.getByTestId('calibration-intro')).toBeVisible({ timeout: 30_000 });
  await respondent.getByTestId('calibration-start').click();
}

test('the notice tells a face far from the camera during calibration and content, and each change is logged', async ({
  page,
  respondent,
}, testInfo) => {
  test.setTimeout(300_000);
  const uploads = recordUploads(respondent);
  await toCalibration(page, respondent, 'en');
  const notice = respondent.getByTestId('live-guidance-notice');

  await test.step('during the calibration: a compact notice above the dots', async () => {
    await expect(respondent.getByTestId('calibration-moving')).toBeVisible({ timeout: 10_000 });
    await expect(notice).toBeVisible({ timeout: 30_000 });
    const problem = await notice.getAttribute('data-problem');
    expect(['too_far', 'no_face']).toContain(problem);
    const words =
      problem === 'too_far'
        ? text('respondent', 'guidance.too_far', 'en')
        : text('common', 'respondent.faceCheck.status.no_face', 'en');
    await expect(notice).toHaveText(words);
    await expect(respondent.getByTestId('live-guidance')).toHaveAttribute('data-compact', 'true');
    // Above the dots' margin (40 px less the dot's radius and halo): never over a dot.
    const box = await notice.boundingBox();
    expect((box?.y ?? 99) + (box?.height ?? 99)).toBeLessThanOrEqual(22);
    await shot(respondent, SHOTS, 'calibration-en', { closeNotifications: false });
  });

  await test.step('during the content: the notice at the top, off the middle', async () => {
    await expect(respondent.getByTestId('video-research')).toBeVisible({ timeout: 60_000 });
    await expect(respondent.getByTestId('live-guidance')).toHaveAttribute('data-compact', 'false');
    await expect(notice).toBeVisible({ timeout: 30_000 });
    const box = await notice.boundingBox();
    expect((box?.y ?? 999) + (box?.height ?? 999)).toBeLessThan(800 * 0.15);
    await shot(respondent, SHOTS, 'content-en', { closeNotifications: false });
  });

  await test.step('the cost of the checks, and the changes in the event log', async () => {
    const guidance = respondent.getByTestId('live-guidance');
    const cost = {
      checks: Number(await guidance.getAttribute('data-checks')),
      meanMs: Number(await guidance.getAttribute('data-check-ms')),
      elapsedMs: Number(await guidance.getAttribute('data-check-elapsed')),
      rate: Number(await guidance.getAttribute('data-check-rate')),
      share: Number(await guidance.getAttribute('data-check-share')),
    };
    testInfo.annotations.push({ type: 'guidance checks', description: JSON.stringify(cost) });
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(resolve(SHOTS, 'cost.json'), JSON.stringify(cost));
    expect(cost.checks).toBeGreaterThan(5);
    // About 3 checks a second at most: never more than the interval allows.
    expect((cost.checks * 1000) / cost.elapsedMs).toBeLessThanOrEqual(1000 / 300 + 0.01);
    await expect
      .poll(() => [...uploads.events.values()].flat().filter((e: SentEvent) => e.type === 'guidance').length, {
        // Batches go at the content's end (or every 500 events).
        timeout: 90_000,
      })
      .toBeGreaterThanOrEqual(2);
    const states = [...uploads.events.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, events]) => events)
      .filter((e) => e.type === 'guidance')
      .map((e) => e.state);
    expect(states.some((s) => s === 'too_far' || s === 'no_face')).toBe(true);
  });
});

test.describe('on a phone, in Russian', () => {
  test.use({ phone: true });
  test('the notice fits the top of a 390 px screen', async ({ page, respondent }) => {
    test.setTimeout(300_000);
    await toCalibration(page, respondent, 'ru');
    const notice = respondent.getByTestId('live-guidance-notice');
    await expect(notice).toBeVisible({ timeout: 40_000 });
    await shot(respondent, SHOTS, 'calibration-ru-390', { closeNotifications: false });
    await expect(respondent.getByTestId('video-research')).toBeVisible({ timeout: 60_000 });
    await expect(notice).toBeVisible({ timeout: 30_000 });
    const box = await notice.boundingBox();
    expect(box?.width ?? 999).toBeLessThanOrEqual(390 - 16);
    await shot(respondent, SHOTS, 'content-ru-390', { closeNotifications: false });
  });
});
