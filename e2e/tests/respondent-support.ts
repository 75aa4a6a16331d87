import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONSENT_POLICY_VERSION } from '@emolens/contracts';
import {
  type APIRequestContext,
  type APIResponse,
  type BrowserContext,
  test as base,
  expect,
  type Page,
} from '@playwright/test';
import { useLookingCamera } from './looking-camera.ts';
import { ASTRONAUT, cabinetApi, createProject, scenarioWithLink } from './support.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const TMP = resolve(ROOT, '.tmp');
const LOCALES = resolve(ROOT, 'apps/web/src/i18n/locales');
const NO_FACE = '/usr/lib/python3/dist-packages/skimage/data/coffee.png';

/** A text of the respondent namespace in `lang` (English by default), by its dotted key. */
export const respondentText = (path: string, lang = 'en'): string => {
  let node: unknown = JSON.parse(readFileSync(resolve(LOCALES, `${lang}/respondent.json`), 'utf8'));
  for (const key of path.split('.')) node = (node as Record<string, unknown>)[key];
  if (typeof node !== 'string') throw new Error(`no ${lang}/respondent:${path}`);
  return node;
};

// 640×480, the picture letterboxed so a face keeps its proportions.
const FIT = 'scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2,setsar=1';

/**
 * A still photograph (scikit-image's astronaut: one face, well lit; face-api's sample1.jpg holds two
 * faces in dim light) as a .y4m file for Chromium's fake webcam (15 fps, 2 s, looped by Chromium).
 */
function fakeCamera(name: string, picture: string): string {
  const dir = resolve(TMP, 'fake-camera');
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, `respondent-${name}.y4m`);
  execFileSync('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-loop', '1', '-t', '2', '-i', picture],
    ...['-vf', `${FIT},format=yuv420p`, '-r', '15', file],
  ]);
  return file;
}

/** `looking`: a face whose eyes follow the calibration dot (looking-camera.ts); `face`: the still photograph. */
export type Camera = 'face' | 'looking' | 'noFace' | 'denied';

/**
 * `respondent`: a page of its own browser whose webcam films a face (or a coffee cup), or whose camera
 * is refused (no fake-UI flag: the permission prompt is dismissed). The page is the respondent's: no
 * cabinet cookie.
 */
export const test = base.extend<{
  camera: Camera;
  phone: boolean;
  respondentContext: BrowserContext;
  respondent: Page;
}>({
  camera: ['face', { option: true }],
  phone: [false, { option: true }],
  respondentContext: async ({ playwright, launchOptions, baseURL, camera, phone }, use) => {
    const file = camera === 'noFace' ? fakeCamera('no-face', NO_FACE) : fakeCamera('face', ASTRONAUT);
    const browser = await playwright.chromium.launch({
      ...launchOptions,
      args: [
        ...(launchOptions.args ?? []),
        ...(camera === 'denied' ? [] : ['--use-fake-ui-for-media-stream']),
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${file}`,
      ],
    });
    const context = await browser.newContext({
      baseURL,
      ...(phone
        ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
        : { viewport: { width: 1280, height: 800 } }),
    });
    if (camera === 'looking') await useLookingCamera(context, resolve(TMP, 'fake-camera'));
    await use(context);
    await browser.close();
  },
  respondent: async ({ respondentContext }, use) => {
    await use(await respondentContext.newPage());
  },
});

/** What the respondent's browser keeps for the link: the session id and its secret (waits for the session to start). */
export async function savedSession(page: Page, token: string): Promise<{ id: string; secret: string }> {
  const read = () => page.evaluate((key) => localStorage.getItem(key), `emolens.respondent.session.${token}`);
  await expect.poll(read, { timeout: 15_000 }).not.toBeNull();
  const raw = await read();
  const value = JSON.parse(raw ?? 'null') as { id: string; secret: string } | null;
  if (!value) throw new Error('no session kept for the link');
  return value;
}

/** The session's state from the respondent API, with its secret. */
export async function sessionState(page: Page, session: { id: string; secret: string }) {
  return page.evaluate(async ({ id, secret }) => {
    const response = await fetch(`/r/sessions/${id}`, { headers: { authorization: `Bearer ${secret}` } });
    return {
      status: response.status,
      body: (await response.json()) as {
        status: string;
        step: string;
        segments: { segment: number; chunks: number }[];
        next_event_seq: number;
        research_index: number;
      },
    };
  }, session);
}

/** An event of a batch the page sent (the contract's respondent events: a type, a time, its fields). */
export type SentEvent = { type: string; t: number } & Record<string, unknown>;

/**
 * Every chunk and event batch the page sent (and the server acknowledged), by their keys; the
 * acknowledged batches' events by their batch number.
 */
export function recordUploads(page: Page) {
  const chunks = new Set<string>();
  const batches = new Set<number>();
  const events = new Map<number, SentEvent[]>();
  page.on('response', async (response) => {
    const url = new URL(response.url());
    const chunk = /\/r\/sessions\/[^/]+\/segments\/(\d+)\/chunks\/(\d+)$/.exec(url.pathname);
    if (chunk && response.ok()) chunks.add(`${chunk[1]}/${chunk[2]}`);
    if (/\/r\/sessions\/[^/]+\/events$/.test(url.pathname) && response.ok()) {
      const body = response.request().postDataJSON() as { seq: number; events: SentEvent[] };
      batches.add(body.seq);
      events.set(body.seq, body.events);
    }
  });
  return { chunks, batches, events };
}

export async function consent(page: Page, { cint = false } = {}) {
  await expect(page.getByTestId('consent-screen')).toBeVisible();
  // The whole policy, in ten numbered parts, in the page's language.
  await expect(page.getByTestId('policy-text')).toContainText('10. ');
  await expect(page.getByTestId('consent-start')).toBeDisabled();
  await page.getByTestId('consent-checkbox').check();
  await page.getByTestId('consent-start').click();
  if (cint) {
    await expect(page.getByTestId('cint-consent')).toBeVisible();
    await page.getByTestId('cint-accept').click();
  }
}

/**
 * The face check (unless off), the calibration (the old flow's 12 s unless told), then the first research's
 * screen `first`.
 */
export async function faceCheckAndCalibration(
  page: Page,
  { faceCheck = true, first = 'video-research', calibrationSeconds = 12 } = {},
) {
  if (faceCheck) {
    await expect(page.getByTestId('face-check-step')).toBeVisible();
    await expect(page.getByTestId('face-check-status')).toHaveAttribute('data-status', 'ok', { timeout: 60_000 });
  }
  await expect(page.getByTestId('calibration-intro')).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('calibration-start').click();
  await expect(page.getByTestId('calibration-countdown')).toBeVisible();
  await expect(page.getByTestId('calibration-moving')).toBeVisible({ timeout: 5000 });
  // The calibration's moving dot, then five still dots of 1.5 s. The dot's clock is the page's: on a starved runner
  // (two browsers recording and the worker analysing at once) its frames come late, so the wait has room beyond it.
  await expect(page.getByTestId('calibration-validation')).toBeVisible({ timeout: (calibrationSeconds + 30) * 1000 });
  await expect(page.getByTestId(first)).toBeVisible({ timeout: 15_000 });
}

/** A research's video content: a real WebM of `seconds` in `dir` (a moving test pattern, 320×240, 10 fps). */
export function contentVideo(dir: string, seconds: number): string {
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, `content-${seconds}s.webm`);
  execFileSync('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=10:duration=${seconds}`],
    // One encoder thread: libvpx's threads wait for each other busily on a loaded machine.
    ...['-c:v', 'libvpx', '-threads', '1', '-b:v', '300k', '-deadline', 'realtime', file],
  ]);
  return file;
}

export interface VideoProject {
  /** The project's title; the time follows it, and the research is "Spot" with the time. */
  title: string;
  /** The content's file, uploaded through the research form. */
  video: string;
  platform?: string;
  language?: string;
  settings?: Record<string, unknown>;
  quota?: number | null;
  faceChecker?: boolean;
  launch?: boolean;
}

/**
 * A project through the cabinet API (old flow: the 12-second calibration) with one video research whose video is
 * uploaded through the research form, one scenario, one quota link; launched unless told. Its ids and the token.
 */
export async function launchedVideoProject(page: Page, setup: VideoProject) {
  const suffix = Date.now().toString(36);
  const projectId = await createProject(page, `${setup.title} ${suffix}`, {
    flow: 'old',
    platform: setup.platform,
    language: setup.language,
  });
  const created = await cabinetApi<{ campaigns: { id: string }[] }>(
    page,
    'POST',
    '/cabinet/projects/add-new-campaign/',
    {
      project_id: projectId,
      campaigns_data: [{ title: `Spot ${suffix}`, content_type: 'video', settings: setup.settings ?? {} }],
    },
  );
  const researchId = created.campaigns[0]?.id ?? '';
  await page.goto(`/cabinet/campaign/${researchId}/form?curr_lang=en`);
  await page.getByTestId('media-input').setInputFiles(setup.video);
  await expect(page.getByTestId('media-item').getByTestId('media-status')).toHaveText('Ready', { timeout: 60_000 });
  const token = await scenarioWithLink(page, projectId, [researchId], {
    quota_size: setup.quota ?? null,
    is_use_face_checker: setup.faceChecker ?? true,
  });
  if (setup.launch !== false) await cabinetApi(page, 'POST', `/cabinet/projects/${projectId}/launch/`, {});
  return { projectId, researchId, token };
}

/** What the respondent specs' launched spot varies (`launchedSpot`). */
export interface SpotSetup {
  platform?: string;
  faceChecker?: boolean;
  quota?: number | null;
  videoSeconds?: number;
  orientation?: 'vertical' | 'horizontal' | 'all';
  cintComplete?: string;
  language?: string;
  launch?: boolean;
}

/**
 * The respondent specs' launched project (respondent.spec.ts, respondent-interruptions.spec.ts): "Respondent spot",
 * its video of `videoSeconds` (4 s).
 */
export function launchedSpot(page: Page, setup: SpotSetup = {}) {
  const settings: Record<string, unknown> = { researchOrientation: setup.orientation ?? 'all' };
  if (setup.cintComplete) {
    settings.cint_options = { complete: setup.cintComplete, quota_full: '', screen_out: '' };
  }
  return launchedVideoProject(page, {
    title: 'Respondent spot',
    video: contentVideo(resolve(TMP, 'respondent-e2e'), setup.videoSeconds ?? 4),
    platform: setup.platform,
    language: setup.language,
    settings,
    quota: setup.quota,
    faceChecker: setup.faceChecker,
    launch: setup.launch,
  });
}

/** Where the respondent specs put their pictures for looking at (E2E_SCREENSHOTS=1). */
export const RESPONDENT_SHOTS = resolve(TMP, 'shots-respondent');

/**
 * A recorder's events up to the content, as the API-driven journeys send them: the segment, the screen (1280×800),
 * a calibration of one dot (20–500 ms), the content step at 550 ms.
 */
export const CALIBRATED_START: readonly SentEvent[] = [
  { type: 'segment_start', t: 0, segment: 0 },
  { type: 'screen', t: 0, width: 1280, height: 800, device_pixel_ratio: 1 },
  { type: 'step', t: 10, step: 'calibration' },
  { type: 'calibration_start', t: 20 },
  { type: 'calibration_dot', t: 30, x: 640, y: 400 },
  { type: 'calibration_end', t: 500 },
  { type: 'step', t: 550, step: 'content' },
];

/** A recording as a recorder sends it: `count` slices, the first starting with the webm header. */
export function recorderChunks(recording: Buffer, count: number): Buffer[] {
  const size = Math.ceil(recording.length / count);
  return Array.from({ length: count }, (_, i) => recording.subarray(i * size, (i + 1) * size));
}

export interface ApiJourney {
  /** The recorder's chunks of one segment. */
  chunks: Buffer[];
  /** The journey's stimulus events, in one batch. */
  events: SentEvent[];
  /** The survey's final answers, when the link has a survey. */
  survey?: Record<string, unknown>;
  participant: string;
}

/**
 * A respondent who goes through the public respondent API as the respondent page does (consent, a recording
 * segment sent chunk by chunk with each chunk's hash, the event log, the survey, the completion), without a
 * browser: for journeys that need more respondents than browsers can be run in the time. Its end.
 */
export async function respondentThroughApi(
  request: APIRequestContext,
  token: string,
  journey: ApiJourney,
): Promise<{ outcome: string; code: string | null }> {
  const ok = async (what: string, answer: Promise<APIResponse>) => {
    const response = await answer;
    if (!response.ok()) throw new Error(`${what}: ${response.status()} ${await response.text()}`);
    return response;
  };
  const screen = { width: 1280, height: 800, device_pixel_ratio: 1 };
  const started = await ok(
    'start',
    request.post(`/r/links/${token}/sessions`, {
      data: {
        consent: { accepted: true, policy_version: CONSENT_POLICY_VERSION, language: 'en', panel_consent: true },
        panel: { participant_id: journey.participant },
        screen,
      },
    }),
  );
  const { secret, session } = (await started.json()) as { secret: string; session: { session_id: string } };
  const headers = { authorization: `Bearer ${secret}` };
  const at = `/r/sessions/${session.session_id}`;
  await ok('segment', request.post(`${at}/segments`, { headers, data: { mime_type: 'video/webm', screen } }));
  for (const [index, bytes] of journey.chunks.entries()) {
    const sha = createHash('sha256').update(bytes).digest('hex');
    await ok(
      `chunk ${index}`,
      request.put(`${at}/segments/0/chunks/${index}`, {
        headers: { ...headers, 'content-type': 'application/octet-stream', 'x-chunk-sha256': sha },
        data: bytes,
      }),
    );
  }
  await ok('events', request.post(`${at}/events`, { headers, data: { seq: 0, events: journey.events } }));
  if (journey.survey) {
    await ok(
      'survey',
      request.put(`${at}/surveys/survey/answers`, { headers, data: { answers: journey.survey, final: true } }),
    );
  }
  const done = await ok(
    'complete',
    request.post(`${at}/complete`, {
      headers,
      data: { segments: [{ segment: 0, chunks: journey.chunks.length }], event_batches: 1 },
    }),
  );
  return (await done.json()) as { outcome: string; code: string | null };
}
