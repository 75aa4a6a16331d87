import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test as base, expect, type Page, type Request } from '@playwright/test';
import { shot } from './support.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PICTURES = '/usr/lib/python3/dist-packages/skimage/data';
const LOCALES = resolve(ROOT, 'apps/web/src/i18n/locales');

const en = (path: string): string => {
  let node: unknown = JSON.parse(readFileSync(resolve(LOCALES, 'en/common.json'), 'utf8'));
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'string') throw new Error(`no en/common:${path}`);
  return node;
};

// 640×480, the picture letterboxed so a face keeps its proportions.
const FIT = 'scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2,setsar=1';

/** What the fake webcam films: stills of scikit-image's sample pictures, 2 s each, looped by Chromium. */
const SCENES = {
  face: { pictures: ['astronaut'], filter: `[0]${FIT}` },
  noFace: { pictures: ['coffee'], filter: `[0]${FIT}` },
  twoFaces: { pictures: ['astronaut'], filter: '[0]scale=320:320,split[a][b];[a][b]hstack,pad=640:480:0:80' },
  // A quarter of the light: mean luma about 0.08.
  dark: { pictures: ['astronaut'], filter: `[0]${FIT},lutrgb=r=val/4:g=val/4:b=val/4` },
  noneThenFace: { pictures: ['coffee', 'astronaut'], filter: `[0]${FIT}[a];[1]${FIT}[b];[a][b]concat=n=2:v=1` },
} as const;
type Scene = keyof typeof SCENES;

/** The scene as a .y4m file for Chromium's fake webcam, 15 fps. */
function fakeCamera(scene: Scene): string {
  const dir = resolve(ROOT, '.tmp/fake-camera');
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, `${scene}.y4m`);
  const { pictures, filter } = SCENES[scene];
  const inputs = pictures.flatMap((p) => ['-loop', '1', '-t', '2', '-i', `${PICTURES}/${p}.png`]);
  const args = ['-y', '-loglevel', 'error', ...inputs, '-filter_complex', `${filter},format=yuv420p`, '-r', '15', file];
  execFileSync('ffmpeg', args);
  return file;
}

/**
 * `cameraPage`: a page of a browser whose webcam films `scene`. The fake camera is a launch flag,
 * so each test launches its own browser, with the flags of playwright.config.ts plus the camera's.
 */
const test = base.extend<{ scene: Scene; cameraPage: Page }>({
  scene: ['face', { option: true }],
  cameraPage: async ({ playwright, launchOptions, baseURL, viewport, scene }, use) => {
    const browser = await playwright.chromium.launch({
      ...launchOptions,
      args: [
        ...(launchOptions.args ?? []),
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${fakeCamera(scene)}`,
      ],
    });
    const context = await browser.newContext({ baseURL, viewport });
    await use(await context.newPage());
    await browser.close();
  },
});

/**
 * The /dot-test setup check up to its face check: the page asks for consent to the short recording
 * first, then opens the camera.
 */
async function openFaceCheck(page: Page): Promise<void> {
  await page.goto('/dot-test?curr_lang=en');
  await page.getByTestId('dot-test-consent').check();
  await page.getByTestId('dot-test-start').click();
}

/** Every network request of the page (data: and blob: addresses are not the network). */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (/^https?:/.test(request.url())) requests.push(request);
  });
  return requests;
}

function expectSameOrigin(requests: Request[], baseURL: string | undefined) {
  const origin = new URL(baseURL ?? '').origin;
  expect(requests.length).toBeGreaterThan(0);
  expect(requests.map((r) => r.url()).filter((url) => new URL(url).origin !== origin)).toEqual([]);
}

test.describe('face check with a face in front of the camera', () => {
  test('/dot-test shows the camera and says all is well, from its own origin only', async ({
    cameraPage: page,
    baseURL,
  }, testInfo) => {
    const requests = recordRequests(page);
    // What the check shows the moment it first says "ok", recorded in the page: a face that stays passes the check
    // 1.2 s later and the page moves on, sooner than a busy test runner may look.
    await page.addInitScript(() => {
      const w = window as unknown as { faceOk?: Record<string, unknown> };
      new MutationObserver(() => {
        const shown = document.querySelector<HTMLElement>('[data-testid="face-check-status"]');
        if (w.faceOk || shown?.dataset.status !== 'ok') return;
        const video = document.querySelector<HTMLVideoElement>('[data-testid="face-check-video"]');
        w.faceOk = { ...shown.dataset, text: shown.textContent, playing: video ? !video.paused : null };
      }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await openFaceCheck(page);
    // Loading the models and the first checks take a few seconds in a software-only browser.
    const ok = await page.waitForFunction(() => (window as unknown as { faceOk?: object }).faceOk, undefined, {
      timeout: 60_000,
    });
    const seen = (await ok.jsonValue()) as Record<string, string | boolean | null | undefined>;
    expect(seen.status).toBe('ok');
    expect(seen.faceCount).toBe('1');
    expect(seen.text).toContain(en('respondent.faceCheck.status.ok'));
    expect(seen.playing).toBe(true);
    testInfo.annotations.push(
      { type: 'checks per second', description: String(seen.fps ?? '') },
      { type: 'backend', description: String(seen.backend ?? '') },
      { type: 'brightness', description: String(seen.brightness ?? '') },
    );
    // A face that stays in view passes the check: the setup check goes on to the calibration.
    await expect(page.getByTestId('calibration-intro')).toBeVisible({ timeout: 15_000 });

    expectSameOrigin(requests, baseURL);
    const paths = requests.map((r) => new URL(r.url()).pathname);
    expect(paths.some((p) => /^\/engine-assets\/models\/[^/]+\/facemesh\.bin$/.test(p))).toBe(true);
    expect(paths.some((p) => /^\/engine-assets\/wasm\/[^/]+\/tfjs-backend-wasm[\w-]*\.wasm$/.test(p))).toBe(true);
  });

  test('the camera error of the spec when the camera cannot be opened', async ({ page }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await openFaceCheck(page);
    // The setup check opens the camera itself before its face check: the journey's camera error screen.
    await expect(page.getByTestId('camera-error')).toBeVisible({ timeout: 20_000 });
    // Spec section 8, word for word.
    await expect(page.getByTestId('camera-error')).toContainText(
      'Could not access the camera. Refresh the page and try again.',
    );
  });

  test('other pages do not download the face engine', async ({ page, baseURL }) => {
    const scripts: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(await response.text());
    });
    const requests = recordRequests(page);
    await page.goto('/price?curr_lang=en');
    await expect(page.getByTestId('price-title')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => s.includes('blazeface'))).toHaveLength(0);
    expect(requests.filter((r) => r.url().includes('/engine-assets/'))).toHaveLength(0);
    expectSameOrigin(requests, baseURL);
  });
});

test.describe('face check without a face', () => {
  test.use({ scene: 'noFace' });

  test('/dot-test asks the respondent to look at the camera', async ({ cameraPage: page, baseURL }, testInfo) => {
    const requests = recordRequests(page);
    await openFaceCheck(page);
    const status = page.getByTestId('face-check-status');
    await expect(status).toHaveAttribute('data-status', 'no_face', { timeout: 60_000 });
    await expect(status).toHaveAttribute('data-face-count', '0');
    await expect(status).toContainText(en('respondent.faceCheck.status.no_face'));
    // It stays so: the check keeps running and finds no face in later frames either.
    await page.waitForTimeout(1500);
    await expect(status).toHaveAttribute('data-status', 'no_face');
    await shot(page, testInfo.outputPath(), 'face-check-no-face', { closeNotifications: false, fullPage: true });
    expectSameOrigin(requests, baseURL);
  });
});

test.describe('face check with two faces', () => {
  test.use({ scene: 'twoFaces' });

  test('/dot-test asks for one person only', async ({ cameraPage: page }) => {
    await openFaceCheck(page);
    const status = page.getByTestId('face-check-status');
    await expect(status).toHaveAttribute('data-status', 'several_faces', { timeout: 60_000 });
    await expect(status).toHaveAttribute('data-face-count', '2');
    await expect(status).toContainText(en('respondent.faceCheck.status.several_faces'));
  });
});

test.describe('face check in the dark', () => {
  test.use({ scene: 'dark' });

  test('/dot-test asks for more light, though the face is found', async ({ cameraPage: page }) => {
    await openFaceCheck(page);
    const status = page.getByTestId('face-check-status');
    await expect(status).toHaveAttribute('data-status', 'too_dark', { timeout: 60_000 });
    await expect(status).toHaveAttribute('data-face-count', '1');
    expect(Number(await status.getAttribute('data-brightness'))).toBeLessThan(0.15);
    await expect(status).toContainText(en('respondent.faceCheck.status.too_dark'));
  });
});

test.describe('face check of a face that comes into view', () => {
  test.use({ scene: 'noneThenFace' });

  test('the status follows the camera, and the check passes once the face stays', async ({ cameraPage: page }) => {
    // Loading the engine in the page takes most of the default 30 s on a runner shared with a second browser.
    test.setTimeout(90_000);
    await openFaceCheck(page);
    const status = page.getByTestId('face-check-status');
    // The camera shows the cup for 2 s, then the face for 2 s.
    await expect(status).toHaveAttribute('data-status', 'no_face', { timeout: 60_000 });
    await expect(status).toHaveAttribute('data-status', 'ok', { timeout: 5000 });
    await expect(page.getByTestId('calibration-intro')).toBeVisible({ timeout: 10_000 });
  });
});
