import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Page } from '@playwright/test';
import {
  CALIBRATED_START,
  contentVideo,
  launchedVideoProject,
  recorderChunks,
  respondentThroughApi,
  type SentEvent,
  TMP,
} from './respondent-support.ts';
import { astronautVideo, cabinetApi } from './support.ts';

/** The report specs' content: a real WebM of a moving test pattern (320×240, 10 fps). */
export const CONTENT_SECONDS = 6;

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
  const { researchId, token } = await launchedVideoProject(page, {
    title: name,
    video: contentVideo(files, CONTENT_SECONDS),
    quota: null,
    faceChecker: false,
  });

  const chunks = recorderChunks(readFileSync(astronautVideo(files, 9)), 3);
  const end = onsetMs + CONTENT_SECONDS * 1000;
  const events: SentEvent[] = [
    ...CALIBRATED_START,
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
  const done = await respondentThroughApi(request, token, { chunks, events, participant: 'viewer-1' });
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
