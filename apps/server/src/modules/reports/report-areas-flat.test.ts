import type { ReportOutput } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertProcessedRespondent, videoResearch } from '../../test/report-rows.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';

/**
 * PUT of a report's areas in the flat form sent before areas had shapes (`{ item, name, x, y, width, height, from,
 * to }`): taken as a rectangle (contracts' `flatRectangleAreaInput`), stored and counted like one drawn in the shape
 * form. The areas export names the fixation filter behind its figures.
 */
const t = appPerFile({}, { queue: true });
let alice: Client;
let researchId: string;
let linkId: string;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  ({ researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 }));
});

describe('areas in the flat rectangle form', () => {
  it('are stored as rectangles with their window and counted after the rebuild', async () => {
    const still = (x: number, y: number, n = 20) => Array.from({ length: n }, () => ({ x, y }));
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    await insertProcessedRespondent(
      t.app,
      { sessionId, researchId },
      { engagement: [0.5, 0.5, 0.5, 0.5], gaze: [...still(100, 100), ...still(800, 400)] },
    );
    const created = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Flat areas' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    await t.app.ctx.queue.run(buildReportJob, { report_id: id, generation: 1 });

    const saved = await alice.request('PUT', `/api/cabinet/reports/${id}/areas/`, {
      body: {
        areas: [
          { item: 0, name: 'Corner', x: 0, y: 0, width: 0.2, height: 0.4 },
          { item: 0, name: 'Late', x: 0.7, y: 0.7, width: 0.2, height: 0.2, from: 1, to: 4 },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().areas).toEqual([
      {
        item: 0,
        name: 'Corner',
        shape: { kind: 'rectangle', x: 0, y: 0, width: 0.2, height: 0.4 },
        key_frames: [],
        from: null,
        to: null,
      },
      {
        item: 0,
        name: 'Late',
        shape: { kind: 'rectangle', x: 0.7, y: 0.7, width: 0.2, height: 0.2 },
        key_frames: [],
        from: 1,
        to: 4,
      },
    ]);
    await t.app.ctx.queue.run(buildReportJob, { report_id: id, generation: 2 });
    const rebuilt: ReportOutput = (await alice.request('GET', `/api/cabinet/reports/${id}/`)).json();
    expect(rebuilt.snapshot?.items[0]?.areas).toEqual([
      expect.objectContaining({
        name: 'Corner',
        shape: { kind: 'rectangle', x: 0, y: 0, width: 200, height: 200 },
        looked: 1,
      }),
      expect.objectContaining({ name: 'Late', from: 1, to: 4, x: 700, y: 350, looked: 1 }),
    ]);

    // The areas export says which filter made the fixations behind its figures, with its settings (decision 042).
    const exported = async (language: string) => {
      const res = await alice.request(
        'GET',
        `/api/cabinet/reports/${id}/export/?kind=areas&format=csv&language=${language}`,
      );
      expect(res.statusCode).toBe(200);
      return res.body
        .trim()
        .split(/\r?\n/)
        .map((line: string) => line.match(/"[^"]*"|[^,]+|(?<=,)(?=,|$)/g) ?? []);
    };
    const [header = [], ...rows] = await exported('en');
    expect(header.at(-1)).toBe('"fixation_filter"');
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.at(-1)).toBe(
        '"I-VT (Olsen 2012): gap fill-in 75 ms, noise reduction moving median of 3 samples, velocity window 67 ms, threshold 30°/s, merge within 75 ms and 1.5°, discard under 60 ms, degrees at 60 cm"',
      );
    }
    const [russianHeader = [], russianRow = []] = await exported('ru');
    expect(russianHeader.at(-1)).toBe('"Фильтр фиксаций и его настройки"');
    expect(russianRow.at(-1)).toContain('порог 30°/с');

    // Still a rectangle inside the item, with nothing else beside it.
    const outside = await alice.request('PUT', `/api/cabinet/reports/${id}/areas/`, {
      body: { areas: [{ item: 0, name: 'Edge', x: 0.9, y: 0, width: 0.2, height: 0.1 }] },
    });
    expect(outside.statusCode).toBe(400);
  });
});
