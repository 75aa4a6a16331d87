import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnalysisRate, MESSAGES, READINGS_MIME_TYPE, type SlowDeviceAction } from '@emolens/contracts';
import { READINGS_MAX_CHUNK_BYTES } from '@emolens/engine';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ISOLATION_HEADERS } from '../../http/isolation.ts';
import { type Client, loggedIn, markLaunched } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { clipReadings, readingsChunks } from '../../test/readings.ts';
import {
  launchedLink,
  type RespondentClient,
  respondentClient,
  SCREEN,
  sha256Hex,
  TINY_WEBM,
} from '../../test/respondent.ts';

/**
 * Privacy mode on the respondent API (issue 32; decision 064): the research's settings, the device check, the
 * fall-back to video upload, the polite stop of a device too slow, and chunks admitted by the session's site.
 */
// The app serves its shell (the respondent's page) from here.
const webDist = mkdtempSync(join(tmpdir(), 'emolens-web-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>app shell</title>');
afterAll(() => rmSync(webDist, { recursive: true, force: true }));
const t = appPerFile({ webDist });
let alice: Client;
let readings: Buffer[];
beforeAll(async () => {
  // Real readings: a clip of a face read by the engine here, as the respondent's page reads it.
  readings = await readingsChunks(await clipReadings(2), 2);
}, 120_000);
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
});

const db = () => t.app.ctx.database.db;

async function research(id: string) {
  const res = await alice.request('GET', `/api/cabinet/campaigns/${id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function patchSettings(id: string, updatedAt: string, settings: Record<string, unknown>) {
  return alice.request('PATCH', `/api/cabinet/campaigns/${id}/update-campaign-data/`, {
    body: { settings, updated_at: updatedAt },
  });
}

/**
 * A launched link whose one research keeps the video on the device (or not), with this slow-device action and
 * analysis rate.
 */
async function privacyLink(
  options: { onDevice?: boolean; slow?: SlowDeviceAction; fps?: AnalysisRate; figma?: boolean } = {},
) {
  const link = await launchedLink(t.app, alice, { launch: false });
  const id = link.researchIds[0] as string;
  const current = await research(id);
  const res = await patchSettings(id, current.updated_at, {
    videoOnDevice: options.onDevice ?? true,
    slowDeviceAction: options.slow ?? 'stop',
    ...(options.fps ? { contentVideoFps: options.fps } : {}),
    ...(options.figma ? { isFigma: true } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  await markLaunched(t.app, link.projectId);
  return link;
}

async function started(token: string): Promise<RespondentClient> {
  const client = respondentClient(t.app);
  const res = await client.start(token);
  expect(res.statusCode, res.body).toBe(201);
  return client;
}

const deviceCheck = (client: RespondentClient, body: unknown) =>
  client.request('POST', `/r/sessions/${client.sessionId}/device-check`, { body });
const analysisSite = (client: RespondentClient, body: unknown = { site: 'server' }) =>
  client.request('POST', `/r/sessions/${client.sessionId}/analysis-site`, { body });
const tooSlow = (client: RespondentClient) => client.request('POST', `/r/sessions/${client.sessionId}/device-too-slow`);
const segment = (client: RespondentClient, mime_type: string) =>
  client.request('POST', `/r/sessions/${client.sessionId}/segments`, { body: { mime_type, screen: SCREEN } });
const row = (id: string) =>
  db()
    .selectFrom('respondent_sessions')
    .select(['status', 'outcome', 'analysis_site', 'device_fps', 'fell_back', 'quota_state', 'step'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('the research setting', () => {
  it('is off by default, saved with its slow-device action, and refused with multi-face analysis', async () => {
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: {
        project_id: await alice.draftProject(),
        campaigns_data: [
          { title: 'Plain', content_type: 'video' },
          { title: 'Group', content_type: 'contentless', settings: { videoOnDevice: true, multiFacesMode: true } },
        ],
      },
    });
    expect(added.statusCode).toBe(400);
    expect(added.json().fields).toEqual({
      'campaigns_data.1.settings.videoOnDevice': MESSAGES['campaign.videoOnDeviceSingleFace'],
    });

    const projectId = await alice.draftProject();
    const ok = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: { project_id: projectId, campaigns_data: [{ title: 'Plain', content_type: 'video' }] },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const created = ok.json().campaigns[0];
    expect(created.settings).toMatchObject({ videoOnDevice: false, slowDeviceAction: 'stop' });

    const on = await patchSettings(created.id, created.updated_at, {
      videoOnDevice: true,
      slowDeviceAction: 'offer_upload',
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().settings).toMatchObject({ videoOnDevice: true, slowDeviceAction: 'offer_upload' });
    // Turning multi-face analysis on beside it is refused on the field of the mode, and nothing changes.
    const group = await patchSettings(created.id, on.json().updated_at, { multiFacesMode: true });
    expect(group.statusCode).toBe(400);
    expect(group.json().fields).toEqual({ 'settings.videoOnDevice': MESSAGES['campaign.videoOnDeviceSingleFace'] });
    expect((await research(created.id)).settings).toMatchObject({ multiFacesMode: false, videoOnDevice: true });
    const bad = await patchSettings(created.id, on.json().updated_at, { slowDeviceAction: 'upload' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('a scenario', () => {
  it('does not put a research analysing several faces beside one whose video stays on the device', async () => {
    const projectId = await alice.draftProject();
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: {
        project_id: projectId,
        campaigns_data: [
          { title: 'Private', content_type: 'video', settings: { videoOnDevice: true } },
          { title: 'Group', content_type: 'contentless', settings: { multiFacesMode: true } },
          { title: 'Plain', content_type: 'contentless' },
        ],
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const [device, group, plain] = added.json().campaigns as { id: string; updated_at: string }[];
    const scenario = (campaign_ids: string[]) =>
      alice.request('POST', `/api/cabinet/projects/${projectId}/scenarios/`, { body: { campaign_ids } });
    const mixed = await scenario([device?.id as string, group?.id as string]);
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().fields).toEqual({ campaign_ids: MESSAGES['scenario.videoOnDeviceMultiFace'] });
    expect((await scenario([device?.id as string, plain?.id as string])).statusCode).toBe(201);
    expect((await scenario([group?.id as string, plain?.id as string])).statusCode).toBe(201);
    // The plain research shares a scenario with the private one: it cannot start analysing several faces.
    const turned = await patchSettings(plain?.id as string, plain?.updated_at as string, { multiFacesMode: true });
    expect(turned.statusCode).toBe(400);
    expect(turned.json().fields).toEqual({ 'settings.multiFacesMode': MESSAGES['scenario.videoOnDeviceMultiFace'] });
  });
});

describe("the respondent's page", () => {
  it('is cross-origin isolated for a research whose video stays on the device and shows no Figma prototype', async () => {
    const page = (path: string) => t.app.inject({ url: path });
    const isolation = (res: Awaited<ReturnType<typeof page>>) => ({
      'cross-origin-opener-policy': res.headers['cross-origin-opener-policy'],
      'cross-origin-embedder-policy': res.headers['cross-origin-embedder-policy'],
    });
    const none = { 'cross-origin-opener-policy': undefined, 'cross-origin-embedder-policy': undefined };
    const privacy = await privacyLink();
    const shell = await page(`/project-research/${privacy.token}?participant_id=p-1`);
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toContain('app shell');
    expect(isolation(shell)).toEqual(ISOLATION_HEADERS);
    // A research that uploads the video, an unknown link, another page of the app: not isolated.
    const plain = await privacyLink({ onDevice: false });
    for (const path of [
      `/project-research/${plain.token}`,
      `/project-research/${privacy.token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))}`,
      '/project-research/not-a-token',
      `/project-research/${privacy.token}/more`,
      '/dot-test',
      '/cabinet/projects',
    ]) {
      const res = await page(path);
      expect(res.statusCode, path).toBe(200);
      expect(isolation(res), path).toEqual(none);
    }
    // A Figma prototype's frame could not be embedded in an isolated page in every browser.
    const figma = await privacyLink({ figma: true });
    expect(isolation(await page(`/project-research/${figma.token}`))).toEqual(none);
  });
});

describe('the device check', () => {
  it('tells the page where the analysis runs, and decides it by the measured speed until the first chunk', async () => {
    const { token } = await privacyLink();
    const client = await started(token);
    expect(client.session?.analysis).toEqual({
      onDevice: true,
      slowDeviceAction: 'stop',
      fps: 10,
      minFramesPerSecond: 8,
      site: 'undecided',
    });
    // Nothing is recorded before the speed is known.
    const early = await segment(client, READINGS_MIME_TYPE);
    expect(early.statusCode).toBe(409);
    expect(early.json().key).toBe('respondent.analysisSiteUndecided');

    for (const body of [
      { framesPerSecond: 241 },
      { framesPerSecond: -1 },
      { framesPerSecond: '12' },
      {},
      { framesPerSecond: 12, site: 'device' },
    ]) {
      const res = await deviceCheck(client, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const stranger = await client.request('POST', `/r/sessions/${client.sessionId}/device-check`, {
      secret: 'not-the-secret',
      body: { framesPerSecond: 12 },
    });
    expect(stranger.statusCode).toBe(404);

    const slow = await deviceCheck(client, { framesPerSecond: 5.5 });
    expect(slow.statusCode, slow.body).toBe(200);
    expect(slow.json().site).toBe('undecided');
    // Measured again (the page retried): fast enough now, and a repeat answers the same.
    for (let i = 0; i < 2; i++) {
      const fast = await deviceCheck(client, { framesPerSecond: 8 });
      expect(fast.statusCode, fast.body).toBe(200);
      expect(fast.json()).toMatchObject({ onDevice: true, site: 'device' });
    }
    expect(await row(client.sessionId)).toMatchObject({ analysis_site: 'device', device_fps: 8, fell_back: false });
    expect((await client.state()).json().analysis.site).toBe('device');
    const notSlow = await analysisSite(client);
    expect(notSlow.statusCode).toBe(409);
    expect(notSlow.json().key).toBe('respondent.deviceNotTooSlow');
    const notStopped = await tooSlow(client);
    expect(notStopped.statusCode).toBe(409);
    expect(notStopped.json().key).toBe('respondent.deviceNotTooSlow');

    // A device session records readings, never video.
    const video = await segment(client, 'video/webm');
    expect(video.statusCode).toBe(409);
    expect(video.json().key).toBe('respondent.videoNotExpected');
    const seg = await segment(client, READINGS_MIME_TYPE);
    expect(seg.statusCode, seg.body).toBe(201);
    const webm = await client.chunk(0, 0, TINY_WEBM);
    expect(webm.statusCode).toBe(415);
    expect(webm.json().key).toBe('respondent.chunkNotReadings');
    const first = readings[0] as Buffer;
    const broken = Buffer.from(first);
    broken[broken.length - 3] = (broken[broken.length - 3] ?? 0) ^ 0xff;
    const damaged = await client.chunk(0, 0, broken);
    expect(damaged.statusCode).toBe(415);
    expect(damaged.json().key).toBe('respondent.chunkNotReadings');
    const huge = Buffer.concat([first, Buffer.alloc(READINGS_MAX_CHUNK_BYTES)]);
    const tooLarge = await client.chunk(0, 0, huge);
    expect(tooLarge.statusCode).toBe(413);
    expect((await client.chunk(0, 0, first)).statusCode).toBe(201);
    // Idempotent by index, as video chunks are.
    expect((await client.chunk(0, 0, first)).statusCode).toBe(200);
    expect((await client.chunk(0, 1, readings[1] as Buffer)).statusCode).toBe(201);

    // The first chunk fixes the site.
    const late = await deviceCheck(client, { framesPerSecond: 3 });
    expect(late.statusCode).toBe(409);
    expect(late.json().key).toBe('respondent.deviceAlreadyChecked');
    expect((await row(client.sessionId)).analysis_site).toBe('device');
  });

  it('is refused for a session whose researches upload video, which refuses readings', async () => {
    const { token } = await privacyLink({ onDevice: false });
    const client = await started(token);
    expect(client.session?.analysis).toMatchObject({ onDevice: false, site: 'server' });
    for (const res of [
      await deviceCheck(client, { framesPerSecond: 30 }),
      await analysisSite(client),
      await tooSlow(client),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().key).toBe('respondent.deviceAnalysisOff');
    }
    const readingsSegment = await segment(client, READINGS_MIME_TYPE);
    expect(readingsSegment.statusCode).toBe(409);
    expect(readingsSegment.json().key).toBe('respondent.readingsNotExpected');
    expect((await segment(client, 'video/webm')).statusCode).toBe(201);
    const inVideo = await client.chunk(0, 0, readings[0] as Buffer);
    expect(inVideo.statusCode).toBe(415);
    expect(inVideo.json().key).toBe('respondent.readingsNotExpected');
    expect((await client.chunk(0, 0, TINY_WEBM, sha256Hex(TINY_WEBM))).statusCode).toBe(201);
  });
});

describe('a device too slow', () => {
  it('stops politely when the research says so: screened out, never a complete, no quota slot, counted', async () => {
    const { token, projectId, researchIds } = await privacyLink({ slow: 'stop' });
    const client = await started(token);
    const unmeasured = await tooSlow(client);
    expect(unmeasured.statusCode).toBe(409);
    expect(unmeasured.json().key).toBe('respondent.analysisSiteUndecided');
    expect((await deviceCheck(client, { framesPerSecond: 4 })).json().site).toBe('undecided');
    const offer = await analysisSite(client);
    expect(offer.statusCode).toBe(409);
    expect(offer.json().key).toBe('respondent.uploadNotOffered');
    expect((await analysisSite(client, { site: 'device' })).statusCode).toBe(400);

    const stop = await tooSlow(client);
    expect(stop.statusCode, stop.body).toBe(200);
    // Cint: the screen-out redirect (or the code); never the complete one.
    expect(stop.json().outcome).toBe('screen_out');
    const again = await tooSlow(client);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(stop.json());
    expect(await row(client.sessionId)).toMatchObject({
      status: 'device_too_slow',
      outcome: 'screen_out',
      quota_state: null,
      step: 'end',
    });
    const state = (await client.state()).json();
    expect(state.status).toBe('device_too_slow');
    expect(state.end).toEqual(stop.json());
    expect((await deviceCheck(client, { framesPerSecond: 30 })).statusCode).toBe(409);

    const fieldwork = (await alice.request('GET', `/api/cabinet/projects/${projectId}/fieldwork/`)).json();
    expect(fieldwork.total).toMatchObject({ device_too_slow: 1, completes: 0, pending: 0, in_progress: 0 });
    const listed = await alice.request(
      'GET',
      `/api/cabinet/projects/${projectId}/respondent-sessions/?status=device_too_slow`,
    );
    expect(listed.json().items).toEqual([
      expect.objectContaining({ status: 'device_too_slow', analysis_site: 'undecided' }),
    ]);
    const stats = await alice.request('POST', '/api/cabinet/campaigns/videoprocesses-statistic/', {
      body: { campaigns: researchIds },
    });
    expect(stats.json().items[0].device_analysis).toEqual({ measured: 1, on_device: 0, fell_back: 0, too_slow: 1 });
  });

  it('uploads the video instead when the research offers it: the session falls back to a video session', async () => {
    // A research analysed at 30 frames a second: the device must keep 24 of them.
    const { token, researchIds } = await privacyLink({ slow: 'offer_upload', fps: 30 });
    const client = await started(token);
    expect(client.session?.analysis).toMatchObject({
      slowDeviceAction: 'offer_upload',
      fps: 30,
      minFramesPerSecond: 24,
    });
    const unmeasured = await analysisSite(client);
    expect(unmeasured.statusCode).toBe(409);
    expect(unmeasured.json().key).toBe('respondent.analysisSiteUndecided');
    // Fast enough at 10 a second, too slow at 30.
    expect((await deviceCheck(client, { framesPerSecond: 20 })).json().site).toBe('undecided');
    for (let i = 0; i < 2; i++) {
      const chose = await analysisSite(client);
      expect(chose.statusCode, chose.body).toBe(200);
      expect(chose.json()).toEqual({
        onDevice: true,
        slowDeviceAction: 'offer_upload',
        fps: 30,
        minFramesPerSecond: 24,
        site: 'server',
      });
    }
    expect(await row(client.sessionId)).toMatchObject({ analysis_site: 'server', fell_back: true, device_fps: 20 });
    // Chosen: no measuring again.
    const remeasure = await deviceCheck(client, { framesPerSecond: 30 });
    expect(remeasure.statusCode).toBe(409);
    expect(remeasure.json().key).toBe('respondent.deviceAlreadyChecked');
    expect((await segment(client, READINGS_MIME_TYPE)).json().key).toBe('respondent.readingsNotExpected');
    expect((await segment(client, 'video/webm')).statusCode).toBe(201);
    expect((await client.chunk(0, 0, TINY_WEBM)).statusCode).toBe(201);
    // Once the video is uploading, the respondent cannot stop as too slow.
    const stop = await tooSlow(client);
    expect(stop.statusCode).toBe(409);
    expect(stop.json().key).toBe('respondent.deviceAlreadyChecked');

    // A second respondent whose device keeps up, for the figures: two measured, one on the device, one fell back.
    const fast = await started(token);
    await deviceCheck(fast, { framesPerSecond: 24 });
    const stats = await alice.request('POST', '/api/cabinet/campaigns/videoprocesses-statistic/', {
      body: { campaigns: researchIds },
    });
    expect(stats.json().items[0].device_analysis).toEqual({ measured: 2, on_device: 1, fell_back: 1, too_slow: 0 });
  });
});
