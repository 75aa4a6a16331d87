import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { recorderChunks, respondentThroughApi, type SentEvent, TMP } from './respondent-support.ts';
import { astronautVideo, cabinetApi } from './support.ts';

/** The report specs' content: a real WebM of a moving test pattern (320×240, 10 fps). */
export const CONTENT_SECONDS = 6;

function contentVideo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, `content-${CONTENT_SECONDS}s.webm`);
  execFileSync('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=10:duration=${CONTENT_SECONDS}`],
    ...['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', file],
  ]);
  return file;
}

/**
 * A launched video research, one respondent's real webcam recording of a face sent through the respondent API and
 * processed by the engine, and a report built on it; its page and research. The recording: calibration, then the
 * content from `onsetMs` to its end with the video's own clock (its play, a tick a second, its end), which gives the
 * curves their seconds; three chunks; events within the session's clock and its slack (10 s), as a recorder's are.
 */
export async function reportOfOneRespondent(
  page: Page,
  request: Parameters<typeof respondentThroughApi>[0],
  { name, onsetMs, dir }: { name: string; onsetMs: number; dir: string },
): Promise<{ url: string; researchId: string }> {
  const files = resolve(TMP, dir);
  const suffix = Date.now().toString(36);
  const project = await cabinetApi<{ id: string }>(page, 'POST', '/cabinet/projects/', {
    title: `${name} ${suffix}`,
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
  await page.getByTestId('media-input').setInputFiles(contentVideo(files));
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

  const chunks = recorderChunks(readFileSync(astronautVideo(files, 9)), 3);
  const end = onsetMs + CONTENT_SECONDS * 1000;
  const events: SentEvent[] = [
    { type: 'segment_start', t: 0, segment: 0 },
    { type: 'screen', t: 0, width: 1280, height: 800, device_pixel_ratio: 1 },
    { type: 'step', t: 10, step: 'calibration' },
    { type: 'calibration_start', t: 20 },
    { type: 'calibration_dot', t: 30, x: 640, y: 400 },
    { type: 'calibration_end', t: 500 },
    { type: 'step', t: 550, step: 'content' },
    { type: 'research_start', t: onsetMs, campaign_id: researchId, index: 0 },
    { type: 'video_play', t: onsetMs + 50, time: 0 },
    ...Array.from({ length: CONTENT_SECONDS - 1 }, (_, i) => ({
      type: 'video_time',
      t: onsetMs + 50 + (i + 1) * 1000,
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
    name,
  });
  await expect
    .poll(async () => (await cabinetApi<{ status: string }>(page, 'GET', `/cabinet/reports/${report.id}/`)).status, {
      timeout: 120_000,
      intervals: [1_000],
    })
    .toBe('done');
  return { url: `/cabinet/campaign/${researchId}/report/${report.id}`, researchId };
}
