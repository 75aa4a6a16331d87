import { readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from '@playwright/test';
import {
  consent,
  contentVideo,
  faceCheckAndCalibration,
  launchedVideoProject,
  respondentText,
  savedSession,
  TMP,
  test,
} from './respondent-support.ts';
import { cabinetApi, login, shot } from './support.ts';

/**
 * Privacy mode (issue 32; decisions 064, 065): a research whose video stays on the respondent's device. The page says
 * so on the consent screen, runs the face check on the recording analysis's engine in a worker (measuring the device),
 * records readings instead of the video, and the server processes them into the respondent's curves; no video of the
 * session is stored anywhere.
 */
const SHOTS = resolve(TMP, 'shots-privacy-mode');
const PORT = Number(process.env.E2E_PORT ?? 8097);
/** The app's data directory (playwright.config.ts): its local storage holds the sessions' chunks. */
const DATA_DIR = resolve(TMP, `e2e-data-${PORT}`);

/** A readings chunk's header (packages/engine/src/readings.ts): "EMLR", version, engine version, rates, counts. */
function readingsHeader(bytes: Buffer) {
  if (bytes.subarray(0, 4).toString('latin1') !== 'EMLR') return null;
  const n = bytes.readUInt8(5);
  let at = 6 + n;
  const fps = bytes.readDoubleLE(at);
  const gazeFps = bytes.readDoubleLE(at + 8);
  at += 16;
  const width = bytes.readUInt16LE(at);
  const height = bytes.readUInt16LE(at + 2);
  const full = bytes.readUInt32LE(at + 4);
  const light = bytes.readUInt32LE(at + 8);
  return { fps, gazeFps, width, height, full, light };
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = resolve(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The machine's CPU time so far: busy and total jiffies over every core (/proc/stat). */
function cpuTimes(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, v) => sum + v, 0);
  // idle and iowait
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

/**
 * Waits until the machine is mostly idle: the device check measures how many frames the page's engine analyses a
 * second, which on a shared 2-core machine depends on what else runs (the server still processing the recordings of
 * the specs before this one). Returns the busy share of the last second it measured; gives up after `timeoutMs`.
 */
async function quietMachine(timeoutMs = 180_000, busyBelow = 0.25): Promise<number> {
  const until = Date.now() + timeoutMs;
  let busy = 1;
  while (Date.now() < until) {
    const a = cpuTimes();
    await sleep(1000);
    const b = cpuTimes();
    busy = (b.busy - a.busy) / Math.max(1, b.total - a.total);
    if (busy < busyBelow) break;
  }
  return busy;
}

/** A video container's first bytes: WebM/Matroska's EBML header, or MP4's `ftyp` box. */
const isVideo = (bytes: Buffer) =>
  bytes.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])) || bytes.subarray(4, 8).toString() === 'ftyp';

test.use({ actionTimeout: 15_000 });

test('privacy mode: the face is analysed in the browser, readings are uploaded, the server processes them, no video is stored', async ({
  page,
  respondent,
}, testInfo) => {
  test.setTimeout(420_000);
  await login(page);
  const { token, researchId } = await launchedVideoProject(page, {
    title: 'Private spot',
    video: contentVideo(resolve(TMP, 'respondent-e2e'), 6),
    settings: { videoOnDevice: true, slowDeviceAction: 'offer_upload' },
  });
  const chunks: { segment: number; index: number; bytes: Buffer }[] = [];
  const segmentTypes: string[] = [];
  respondent.on('request', (request) => {
    const url = new URL(request.url());
    const chunk = /\/r\/sessions\/[^/]+\/segments\/(\d+)\/chunks\/(\d+)$/.exec(url.pathname);
    const body = request.postDataBuffer();
    if (chunk && request.method() === 'PUT' && body) {
      chunks.push({ segment: Number(chunk[1]), index: Number(chunk[2]), bytes: body });
    }
    if (/\/r\/sessions\/[^/]+\/segments$/.test(url.pathname) && request.method() === 'POST') {
      segmentTypes.push((request.postDataJSON() as { mime_type: string }).mime_type);
    }
  });
  const deviceChecks: { framesPerSecond: number; site: string; minFramesPerSecond: number }[] = [];
  respondent.on('response', async (response) => {
    if (!/\/device-check$/.test(new URL(response.url()).pathname) || !response.ok()) return;
    const sent = response.request().postDataJSON() as { framesPerSecond: number };
    const answer = (await response.json()) as { site: string; minFramesPerSecond: number };
    deviceChecks.push({
      framesPerSecond: sent.framesPerSecond,
      site: answer.site,
      minFramesPerSecond: answer.minFramesPerSecond,
    });
  });

  let session = { id: '', secret: '' };
  const busy = await quietMachine();
  testInfo.annotations.push({ type: 'machine busy before the face check', description: `${Math.round(busy * 100)}%` });
  await test.step('the consent screen says the video stays on the device', async () => {
    await respondent.goto(`/project-research/${token}?participant_id=private-1`);
    await expect(respondent.getByTestId('consent-on-device')).toHaveText(respondentText('consent.onDevice'));
    // Isolated, so the engine may use WebAssembly threads where the device has the cores (decision 072).
    expect(await respondent.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    await shot(respondent, SHOTS, '01-consent-en');
    await consent(respondent);
    session = await savedSession(respondent, token);
  });

  await test.step("the face check runs on the analysis's engine in the page; the device is measured fast enough", async () => {
    await expect(respondent.getByTestId('face-check-status')).toHaveAttribute('data-backend', 'onnx-wasm', {
      timeout: 120_000,
    });
    // The engine's worker runs isolated too (its script carries the embedder policy; decision 072).
    const isolated = await Promise.all(
      respondent.workers().map((w) => w.evaluate(() => globalThis.crossOriginIsolated)),
    );
    expect(isolated).toContain(true);
    await expect(respondent.getByTestId('face-check-status')).toHaveAttribute('data-status', 'ok', { timeout: 60_000 });
    await expect.poll(() => deviceChecks.length, { timeout: 30_000 }).toBe(1);
    const check = deviceChecks[0] as (typeof deviceChecks)[number];
    testInfo.annotations.push({ type: 'face check (frames/s)', description: String(check.framesPerSecond) });
    if (check.site !== 'device') {
      // A machine whose browser reads fewer full frames than the device path needs (decision 076): the page shows
      // what a slow device gets (the research offers the upload), and the rest of the journey cannot run here. Said
      // in the report and in CI's summary as skipped, with the figures, never passed.
      expect(check.framesPerSecond).toBeLessThan(check.minFramesPerSecond);
      expect(check.site).toBe('undecided');
      await expect(respondent.getByTestId('device-slow')).toBeVisible({ timeout: 15_000 });
      await expect(respondent.getByTestId('device-upload')).toBeVisible();
      test.skip(
        true,
        `this machine's browser analysed ${check.framesPerSecond} full frames a second in the face check; the device path needs ${check.minFramesPerSecond}`,
      );
    }
    await faceCheckAndCalibration(respondent, { faceCheck: false });
  });

  await test.step('the live guidance runs from the same engine', async () => {
    await expect(respondent.getByTestId('live-guidance')).toHaveAttribute('data-source', 'device');
  });

  await test.step('the content plays, readings are sent, the completion code is shown', async () => {
    await expect
      .poll(() => respondent.getByTestId('research-video').evaluate((v: HTMLVideoElement) => v.currentTime), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0.5);
    await expect(respondent.getByTestId('completion-code')).toBeVisible({ timeout: 90_000 });
    await shot(respondent, SHOTS, '02-code-en');
  });

  await test.step('only readings left the page: every chunk is a readings chunk, none a video', async () => {
    expect(segmentTypes.length).toBeGreaterThan(0);
    expect(new Set(segmentTypes)).toEqual(new Set(['application/vnd.emolens.readings']));
    expect(chunks.length).toBeGreaterThan(0);
    const headers = chunks.map((c) => readingsHeader(c.bytes));
    for (const h of headers) {
      expect(h).not.toBeNull();
      expect(h).toMatchObject({ fps: 10, gazeFps: 30, width: 640, height: 480 });
    }
    const full = headers.reduce((sum, h) => sum + (h?.full ?? 0), 0);
    const light = headers.reduce((sum, h) => sum + (h?.light ?? 0), 0);
    const bytes = chunks.reduce((sum, c) => sum + c.bytes.byteLength, 0);
    testInfo.annotations.push({
      type: 'readings',
      description: `${chunks.length} chunks, ${bytes} bytes, ${full} full and ${light} light frames`,
    });
    expect(full).toBeGreaterThan(50);
  });

  await test.step('the server processed the readings: the process is done, with a face', async () => {
    await page.goto(`/cabinet/campaign/${researchId}/statistic?curr_lang=en`);
    const row = page.getByTestId('processes-panel').getByTestId('process-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('private-1');
    await expect(row).toHaveAttribute('data-status', 'done', { timeout: 180_000 });
    await expect(row.getByTestId('process-face')).toHaveText('Found');
    await shot(page, SHOTS, '03-statistic-done-en');
  });

  await test.step("the report shows the respondent's curves", async () => {
    const report = await cabinetApi<{ id: string }>(page, 'POST', `/cabinet/campaigns/${researchId}/reports/`, {
      name: 'Private spot',
    });
    await expect
      .poll(async () => (await cabinetApi<{ status: string }>(page, 'GET', `/cabinet/reports/${report.id}/`)).status, {
        timeout: 120_000,
        intervals: [1_000],
      })
      .toBe('done');
    const built = await cabinetApi<{
      snapshot: { items: { seconds: number[]; curves: Record<string, { n: number[]; mean: (number | null)[] }> }[] };
    }>(page, 'GET', `/cabinet/reports/${report.id}/`);
    const item = built.snapshot.items[0];
    const seconds = item?.seconds.length ?? 0;
    expect(seconds).toBeGreaterThan(0);
    // One respondent behind most of the video's points, with a value there, for attention and engagement.
    for (const metric of ['attention', 'engagement']) {
      const curve = item?.curves[metric];
      const read = curve?.mean.filter((v, i) => v !== null && curve.n[i] === 1).length ?? 0;
      expect(read, metric).toBeGreaterThanOrEqual(Math.ceil(seconds / 2));
    }
    await page.goto(`/cabinet/campaign/${researchId}/report/${report.id}?curr_lang=en`);
    await expect(page.getByTestId('report-chart')).toBeVisible({ timeout: 60_000 });
    await shot(page, SHOTS, '04-report-en');
  });

  await test.step('no video of the session is stored: the cabinet has none to play, the storage holds readings only', async () => {
    const sessions = await cabinetApi<{ items: { id: string; analysis_site: string; segments: { url: string }[] }[] }>(
      page,
      'GET',
      `/cabinet/campaigns/${researchId}/respondent-sessions/`,
    );
    const mine = sessions.items.find((s) => s.id === session.id);
    expect(mine?.analysis_site).toBe('device');
    // What the cabinet serves as the session's recording is its readings, never a video.
    const recording = await page.request.get(`/api/cabinet/respondent-sessions/${session.id}/recordings/0/`);
    if (recording.status() === 200) {
      expect(recording.headers()['content-type'] ?? '').not.toMatch(/^video\//);
      expect(isVideo(await recording.body())).toBe(false);
    } else expect(recording.status()).toBe(404);
    const stored = filesUnder(DATA_DIR).filter((path) => path.includes(session.id));
    expect(stored.length).toBeGreaterThan(0);
    for (const path of stored) {
      const head = readFileSync(path).subarray(0, 16);
      expect(isVideo(head), path).toBe(false);
    }
  });
});
