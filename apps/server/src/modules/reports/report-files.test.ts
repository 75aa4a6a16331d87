import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ffmpegPaths } from '@emolens/engine';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, createTestAppWithFiles, loggedIn, type TestApp } from '../../test/harness.ts';
import { insertProcessedRespondent, videoResearch } from '../../test/report-rows.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';
import { makeReportFileJob } from './jobs/make-report-file.job.ts';

/**
 * A report's files (issue 13, item 8): the presentation made on the server and opened in LibreOffice, the video
 * export checked frame by frame, an analyst's own presentation attached (checked by decoding), and the refusals.
 * LibreOffice (`soffice`) and poppler (`pdftotext`, `pdftoppm`) must be installed: the CI installs them, and
 * without them these tests fail rather than skip.
 */
let t: TestApp & { dir: string };
let alice: Client;
let bob: Client;
let researchId: string;
let linkId: string;
let work: string;
const VIDEO = { width: 640, height: 320, seconds: 4 };

beforeAll(async () => {
  t = await createTestAppWithFiles('report-files');
  await t.app.ctx.queue.start({ work: false });
  work = await mkdtemp(join(tmpdir(), 'emolens-report-files-'));
});
afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A research whose content is a real stored 4-second video (test pattern and a tone). */
beforeEach(async () => {
  await t.reset();
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  let storageKey: string;
  ({ researchId, linkId, storageKey } = await videoResearch(t.app, alice, 'alice', VIDEO));
  const file = join(work, 'content.mp4');
  execFileSync(ffmpegPaths().ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${VIDEO.width}x${VIDEO.height}:rate=25`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', String(VIDEO.seconds)],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file],
  ]);
  const bytes = await readFile(file);
  await t.app.ctx.deps.storage.put(storageKey, bytes, bytes.length, 'video/mp4');
});

const still = (x: number, y: number, n = 10) => Array.from({ length: n }, () => ({ x, y }));

/**
 * Three respondents looking at the top-left corner, then the middle; a built report of them. `flat`: engagement
 * that never moves, so the report has no key moments.
 */
async function builtReport(name = 'Launch test', { flat = false } = {}): Promise<string> {
  const people = [
    { engagement: flat ? [0.4, 0.4, 0.4, 0.4] : [0.2, 0.4, 0.6, 0.8], sex: 'man' },
    { engagement: flat ? [0.4, 0.4, 0.4, 0.4] : [0.4, 0.5, 0.4, 0.3], sex: 'woman' },
    { engagement: flat ? [0.4, 0.4, 0.4, 0.4] : [0.6, 0.7, 0.2, 0.1], sex: 'man' },
  ] as const;
  for (const p of people) {
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    await t.app.ctx.database.db
      .updateTable('respondent_sessions')
      .set({ sex: p.sex, age: 30 })
      .where('id', '=', sessionId)
      .execute();
    await insertProcessedRespondent(
      t.app,
      { sessionId, researchId },
      { engagement: [...p.engagement], gaze: [...still(80, 60), ...still(320, 160, 30)], accuracyPercent: 3 },
    );
  }
  const res = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, { body: { name } });
  expect(res.statusCode, res.body).toBe(201);
  const id: string = res.json().id;
  await t.app.ctx.queue.run(buildReportJob, { report_id: id, generation: 1 });
  return id;
}

const files = async (id: string, client = alice) =>
  (await client.request('GET', `/api/cabinet/reports/${id}/files/`)).json();
const fileOf = async (id: string, kind: 'presentation' | 'video') =>
  (await files(id)).files.find((f: { kind: string }) => f.kind === kind);

/** Requests the file and runs its job here; the downloaded bytes. */
async function made(id: string, kind: 'presentation' | 'video', language = 'en'): Promise<Buffer> {
  const res = await alice.request('POST', `/api/cabinet/reports/${id}/files/${kind}/`, { body: { language } });
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toMatchObject({ status: 'in_progress', can: { generate: false, download: false } });
  const attempt = (await t.app.ctx.deps.reportFiles.get(id, kind))?.attempt ?? 0;
  await t.app.ctx.queue.run(makeReportFileJob, { report_id: id, kind, attempt, theme: 'colour' });
  expect(await fileOf(id, kind)).toMatchObject({
    status: 'done',
    progress: 100,
    can: { download: true, generate: true },
  });
  const download = await alice.request('GET', `/api/cabinet/reports/${id}/files/${kind}/download/`);
  expect(download.statusCode).toBe(200);
  // Served as what it is (issue 28, item 4), never as bytes of no type.
  expect(download.headers['content-type']).toBe(
    kind === 'presentation' ? 'application/vnd.openxmlformats-officedocument.presentationml.presentation' : 'video/mp4',
  );
  return download.rawPayload;
}

const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8', timeout: 120_000 });

describe('the presentation', { timeout: 180_000 }, () => {
  it('made from the report in Russian, it opens in LibreOffice with the report’s title, charts and tables', async () => {
    const id = await builtReport('Запуск весна');
    const pptx = await made(id, 'presentation', 'ru');
    expect(pptx.subarray(0, 2).toString()).toBe('PK');
    const file = join(work, 'deck.pptx');
    await writeFile(file, pptx);
    run('soffice', ['--headless', '--norestore', '--convert-to', 'pdf', '--outdir', work, file]);
    const pdf = join(work, 'deck.pdf');
    const pages = Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [pdf]))?.[1]);
    // Cover, sample, curves, expressions, segments (men / women), key moments, heatmap frames, method.
    expect(pages).toBeGreaterThanOrEqual(7);
    const text = run('pdftotext', ['-layout', pdf, '-']);
    for (const words of [
      'Запуск весна',
      'Выборка',
      'Вовлечённость, валентность и внимание',
      'Куда смотрели',
      'Мужчины',
    ]) {
      expect(text).toContain(words);
    }
    // The curves slide (page 3) is a real picture: many distinct colours, not a blank page.
    run('pdftoppm', ['-f', '3', '-l', '3', '-r', '40', '-png', pdf, join(work, 'page')]);
    const page = await readFile(join(work, 'page-03.png')).catch(() => readFile(join(work, 'page-3.png')));
    expect(page.length).toBeGreaterThan(8000);
  });

  it('draws the heatmap of a video with no key moments over a still of the video, not a grey box', async () => {
    const id = await builtReport('Flat', { flat: true });
    const report = (await alice.request('GET', `/api/cabinet/reports/${id}/`)).json();
    expect(report.snapshot.items[0].moments).toEqual([]);
    const zip = unzipSync(new Uint8Array(await made(id, 'presentation')));
    const slide = Object.keys(zip)
      .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
      .find((name) => strFromU8(zip[name] as Uint8Array).includes('<a:t>Where people looked</a:t>'));
    expect(slide).toBeDefined();
    const rels = strFromU8(zip[(slide as string).replace('slides/', 'slides/_rels/').concat('.rels')] as Uint8Array);
    const image = /Target="..\/media\/([^"]+\.png)"/.exec(rels)?.[1];
    const png = zip[`ppt/media/${image}`] as Uint8Array;
    // The test pattern's colours fill the picture: far more distinct colours than a grey box under a heatmap.
    const raw = execFileSync(
      ffmpegPaths().ffmpeg,
      [
        ...['-v', 'error', '-f', 'png_pipe', '-i', 'pipe:0', '-vf', 'scale=64:32', '-f', 'rawvideo'],
        ...['-pix_fmt', 'rgb24', 'pipe:1'],
      ],
      { input: png },
    );
    let saturated = 0;
    for (let i = 0; i < raw.length; i += 3) {
      const channels = [raw[i] ?? 0, raw[i + 1] ?? 0, raw[i + 2] ?? 0];
      if (Math.max(...channels) - Math.min(...channels) > 120) saturated++;
    }
    expect(saturated / (raw.length / 3)).toBeGreaterThan(0.5);
  });

  it('is made once at a time, outdated by a rebuild, and an older attempt cannot overwrite a newer file', async () => {
    const id = await builtReport();
    const first = await alice.request('POST', `/api/cabinet/reports/${id}/files/presentation/`, {
      body: { language: 'en' },
    });
    expect(first.statusCode).toBe(202);
    const again = await alice.request('POST', `/api/cabinet/reports/${id}/files/presentation/`, {
      body: { language: 'en' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('report.fileInProgress');
    // A worker that died on the last retry leaves an attempt with no word: after longer than a job may run, it no
    // longer holds the file.
    await t.app.ctx.database.db
      .updateTable('report_files')
      .set({ updated_at: new Date(Date.now() - 36 * 60 * 1000) })
      .where('report_id', '=', id)
      .execute();
    expect(await fileOf(id, 'presentation')).toMatchObject({
      status: 'failed',
      error_key: 'report.fileFailed',
      can: { generate: true, remove: true },
    });
    const restarted = await alice.request('POST', `/api/cabinet/reports/${id}/files/presentation/`, {
      body: { language: 'en' },
    });
    expect(restarted.statusCode).toBe(202);
    // The analyst attaches their own while it is being made: the running attempt may no longer write.
    const own = await alice.request('PUT', `/api/cabinet/reports/${id}/files/presentation/?filename=Ours.pdf`, {
      rawBody: minimalPdf(),
      headers: { 'content-type': 'application/pdf' },
    });
    expect(own.statusCode, own.body).toBe(200);
    await t.app.ctx.queue.run(makeReportFileJob, { report_id: id, kind: 'presentation', attempt: 1, theme: 'colour' });
    expect(await fileOf(id, 'presentation')).toMatchObject({
      status: 'done',
      source: 'uploaded',
      filename: 'Ours.pdf',
    });
    const download = await alice.request('GET', `/api/cabinet/reports/${id}/files/presentation/download/`);
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(download.headers['content-disposition']).toContain('Ours.pdf');

    // Generated again, then the report rebuilt: the file says it was made from an earlier build.
    await made(id, 'presentation');
    expect((await fileOf(id, 'presentation')).outdated).toBe(false);
    expect((await alice.request('POST', `/api/cabinet/reports/${id}/rebuild/`)).statusCode).toBeLessThan(300);
    await t.app.ctx.queue.run(buildReportJob, { report_id: id, generation: 2 });
    expect((await fileOf(id, 'presentation')).outdated).toBe(true);

    // Removed: gone from the list, its bytes in the storage trash.
    const key = (await t.app.ctx.deps.reportFiles.get(id, 'presentation'))?.storage_key;
    expect((await alice.request('DELETE', `/api/cabinet/reports/${id}/files/presentation/`)).statusCode).toBe(204);
    expect(await fileOf(id, 'presentation')).toMatchObject({ status: 'none', can: { download: false, remove: false } });
    const trash = await t.app.ctx.database.db.selectFrom('storage_trash').select('key').execute();
    expect(trash.map((r) => r.key)).toContain(key);
  });
});

/** The smallest PDF a reader accepts: a header, one empty page, the trailer. */
function minimalPdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
}

describe('attaching a presentation', { timeout: 180_000 }, () => {
  it('takes a PPTX or a PDF by what the bytes are; refuses a picture, a plain ZIP and a file over 100 MB', async () => {
    const id = await builtReport();
    const put = (raw: Buffer | Readable, filename: string, type = 'application/octet-stream') =>
      alice.request('PUT', `/api/cabinet/reports/${id}/files/presentation/?filename=${encodeURIComponent(filename)}`, {
        rawBody: raw,
        headers: { 'content-type': type },
      });
    const png = await readFile('/usr/lib/python3/dist-packages/skimage/data/astronaut.png');
    const picture = await put(png, 'slides.pdf', 'application/pdf');
    expect(picture.statusCode).toBe(415);
    expect(picture.json().key).toBe('media.invalidFormat');
    const zip = await put(Buffer.from(zipSync({ 'ppt/presentation.xml': new Uint8Array([1]) })), 'slides.pptx');
    expect(zip.statusCode).toBe(415);
    const json = await alice.request('PUT', `/api/cabinet/reports/${id}/files/presentation/?filename=a.pdf`, {
      body: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const big = Readable.from(
      (function* () {
        const chunk = Buffer.alloc(1024 * 1024, 0x25);
        for (let i = 0; i < 101; i++) yield chunk;
      })(),
    );
    const tooLarge = await put(big, 'huge.pdf');
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().key).toBe('media.tooLarge');
    expect(await fileOf(id, 'presentation')).toMatchObject({ status: 'none' });

    const pptx = await made(id, 'presentation');
    const attached = await put(pptx, 'Агентство.pptx');
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json()).toMatchObject({ source: 'uploaded', filename: 'Агентство.pptx', size: pptx.length });
  });

  it('refuses what the report cannot have: a video of pictures, an unbuilt report, another customer’s report', async () => {
    const id = await builtReport();
    expect((await alice.request('GET', `/api/cabinet/reports/${id}/files/`, {})).statusCode).toBe(200);
    const strangers = await bob.request('GET', `/api/cabinet/reports/${id}/files/`);
    expect(strangers.statusCode).toBe(404);
    const bobMakes = await bob.request('POST', `/api/cabinet/reports/${id}/files/presentation/`, {
      body: { language: 'en' },
    });
    expect(bobMakes.statusCode).toBe(404);
    const badKind = await alice.request('POST', `/api/cabinet/reports/${id}/files/slides/`, {
      body: { language: 'en' },
    });
    expect(badKind.statusCode).toBe(400);
    expect((await alice.request('GET', `/api/cabinet/reports/${id}/files/video/download/`)).json().key).toBe(
      'report.noFile',
    );
    // The research's video gone after the build: the job says so, and the file can be asked for again.
    await t.app.ctx.database.db
      .updateTable('media')
      .set({ status: 'failed' })
      .where('campaign_id', '=', researchId)
      .execute();
    expect(
      (await alice.request('POST', `/api/cabinet/reports/${id}/files/video/`, { body: { language: 'en' } })).statusCode,
    ).toBe(202);
    await t.app.ctx.queue.run(makeReportFileJob, { report_id: id, kind: 'video', attempt: 1, theme: 'dark' });
    expect(await fileOf(id, 'video')).toMatchObject({
      status: 'failed',
      error_key: 'report.noVideo',
      can: { generate: true },
    });
    await t.app.ctx.database.db
      .updateTable('campaigns')
      .set({ content_type: 'pictures' })
      .where('id', '=', researchId)
      .execute();
    const video = await alice.request('POST', `/api/cabinet/reports/${id}/files/video/`, { body: { language: 'en' } });
    expect(video.statusCode).toBe(409);
    expect(video.json().key).toBe('report.videoOnly');
    expect((await fileOf(id, 'video')).can.generate).toBe(false);
    await t.app.ctx.database.db.updateTable('reports').set({ status: 'in_progress' }).where('id', '=', id).execute();
    const unbuilt = await alice.request('POST', `/api/cabinet/reports/${id}/files/presentation/`, {
      body: { language: 'en' },
    });
    expect(unbuilt.json().key).toBe('report.notDone');
  });
});

describe('the video export', { timeout: 180_000 }, () => {
  it('is the video with the heatmap over it and the engagement curve below, its sound kept', async () => {
    const id = await builtReport();
    const mp4 = await made(id, 'video');
    const file = join(work, 'export.mp4');
    await writeFile(file, mp4);
    const probe = JSON.parse(
      run(ffmpegPaths().ffprobe, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]),
    ) as {
      streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
      format: { duration: string };
    };
    const video = probe.streams.find((s) => s.codec_type === 'video');
    expect(video).toMatchObject({ codec_name: 'h264', width: VIDEO.width });
    // The curve strip below the picture.
    expect(video?.height).toBeGreaterThan(VIDEO.height + 100);
    expect(probe.streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac')).toBe(true);
    expect(Number(probe.format.duration)).toBeCloseTo(VIDEO.seconds, 0);

    // At 0.5 s everyone looked at (80, 60): the export is redder there than the video itself.
    const pixel = (path: string, at: number, x: number, y: number) => {
      const raw = execFileSync(ffmpegPaths().ffmpeg, [
        ...['-v', 'error', '-ss', String(at), '-i', path, '-frames:v', '1'],
        ...['-vf', `format=rgb24,crop=2:2:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      ]);
      return [...raw.subarray(0, 3)];
    };
    const source = join(work, 'content.mp4');
    const [r0, g0, b0] = pixel(source, 0.5, 80, 60);
    const [r1, g1, b1] = pixel(file, 0.5, 80, 60);
    expect(
      Math.abs((r1 ?? 0) - (r0 ?? 0)) + Math.abs((g1 ?? 0) - (g0 ?? 0)) + Math.abs((b1 ?? 0) - (b0 ?? 0)),
    ).toBeGreaterThan(60);
    // Far from any gaze (the bottom-right corner), the picture is the video's.
    const [r2, g2, b2] = pixel(source, 0.5, 620, 300);
    const [r3, g3, b3] = pixel(file, 0.5, 620, 300);
    expect(
      Math.abs((r3 ?? 0) - (r2 ?? 0)) + Math.abs((g3 ?? 0) - (g2 ?? 0)) + Math.abs((b3 ?? 0) - (b2 ?? 0)),
    ).toBeLessThan(40);
  });
});
