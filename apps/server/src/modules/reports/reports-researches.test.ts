import { describe, expect, it } from 'vitest';
import { insertMedia } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertProcessedRespondent, type SyntheticRespondent, videoResearch } from '../../test/report-rows.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { close, type VideoResearch, videoResearchEachTest } from './reports.fixture.ts';

/**
 * Reports through the cabinet API (issue 13) over several researches of a project: their respondents pooled and
 * compared, their gaze mapped onto the report's video, and the researches that cannot be pooled, with the reason.
 */
const t = appPerFile({}, { queue: true });
let { alice, bob, researchId, linkId } = {} as VideoResearch;
const { built, create, threeRespondents } = videoResearchEachTest(t, (r) => ({ alice, bob, researchId, linkId } = r));

describe('a report over several researches of the project', () => {
  /** Another research of the same project (a copy of the first, content and all), showing a video of `size`. */
  async function sibling(size: { width: number; height: number } | null, over: { content_type?: 'shelf' } = {}) {
    const db = t.app.ctx.database.db;
    const home = await db.selectFrom('campaigns').selectAll().where('id', '=', researchId).executeTakeFirstOrThrow();
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = home;
    const row = await db
      .insertInto('campaigns')
      .values({
        ...rest,
        title: 'Second panel',
        categories: JSON.stringify(rest.categories),
        settings: JSON.stringify(rest.settings),
        picture_gallery: JSON.stringify(rest.picture_gallery),
        shelf_content_scenario: JSON.stringify(rest.shelf_content_scenario),
        shelf_setting: JSON.stringify(rest.shelf_setting),
        ...over,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (size) {
      const video = await insertMedia(t.app, {
        researchId: row.id,
        owner: 'alice',
        kind: 'video',
        status: 'ready',
        duration_seconds: 4,
      });
      await db.updateTable('media').set(size).where('id', '=', video).execute();
    }
    return row.id;
  }

  async function theirs(research: string, r: SyntheticRespondent) {
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    await insertProcessedRespondent(t.app, { sessionId, researchId: research }, r);
    return sessionId;
  }

  it('pools the respondents, compares the researches on one chart and maps their gaze onto the report’s video', async () => {
    await threeRespondents();
    // The second research's video is twice as large: its respondents' gaze is halved onto the report's 1000 × 500.
    const second = await sibling({ width: 2000, height: 1000 });
    const gazed = await theirs(second, {
      engagement: [0.8, 0.8, 0.8, 0.8],
      gaze: Array.from({ length: 40 }, () => ({ x: 1000, y: 500 })),
    });
    await theirs(second, { engagement: [0.6, 0.6, 0.6, 0.6] });
    const poolable = await alice.request('GET', `/api/cabinet/campaigns/${researchId}/reports/researches/`);
    expect(poolable.json()).toEqual([{ id: second, title: 'Second panel', processed: 2 }]);

    const report = await built({ researches: [second], segment: { by: 'research' } });
    expect(report).toMatchObject({ status: 'done', researches: [second], video_count: 5 });
    const s = report.snapshot;
    expect(s?.researches.map((r) => [r.id, r.respondents])).toEqual([
      [researchId, 3],
      [second, 2],
    ]);
    // Second 0: 0.2, 0.4, 0.6 and 0.8, 0.6 → 0.52 over five.
    const e = s?.items[0]?.curves.engagement;
    expect(e?.n[0]).toBe(5);
    close(e?.mean[0], 0.52);
    const segments = s?.items[0]?.segments ?? [];
    const bySegment = Object.fromEntries(segments.map((g) => [g.key, g]));
    expect(bySegment[researchId]?.respondents).toBe(3);
    close(bySegment[researchId]?.curves.engagement.mean[0], 0.4);
    close(bySegment[second]?.curves.engagement.mean[0], 0.7);
    expect(bySegment[second]?.labels?.ru).toBe('Second panel');
    expect(s?.people.filter((p) => p.campaign_id === second)).toHaveLength(2);

    const played = (
      await alice.request('GET', `/api/cabinet/reports/${report.id}/playback/?session_id=${gazed}&item=0`)
    ).json();
    expect(played.gaze.x[0]).toBe(500);
    expect(played.gaze.y[0]).toBe(250);
    // The heatmap's densest cell is where that gaze lands on the report's video: the middle.
    const heatmap = s?.items[0]?.heatmap;
    const cells = heatmap?.cells ?? [];
    const peak = cells.indexOf(Math.max(...cells));
    expect(peak % (heatmap?.cols ?? 1)).toBe(Math.floor((heatmap?.cols ?? 0) / 2));
  });

  it('refuses researches it cannot pool, with the reason', async () => {
    await threeRespondents();
    const fields = async (body: Record<string, unknown>) => {
      const res = await create(body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().field_keys;
    };
    // The research itself, another content type, a research of another project.
    expect(await fields({ researches: [researchId] })).toMatchObject({
      researches: { key: 'report.researchMismatch' },
    });
    const shelf = await sibling(null, { content_type: 'shelf' });
    expect(await fields({ researches: [shelf] })).toMatchObject({ researches: { key: 'report.researchMismatch' } });
    const elsewhere = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 });
    expect(await fields({ researches: [elsewhere.researchId] })).toMatchObject({
      researches: { key: 'report.researchMismatch' },
    });
    // Comparing researches with none to compare.
    expect(await fields({ segment: { by: 'research' } })).toMatchObject({ segment: { key: 'report.segmentResearch' } });
    // Someone else's research is not found at all.
    const bobs = await videoResearch(t.app, bob, 'bob', { width: 1000, height: 500, seconds: 4 });
    expect((await create({ researches: [bobs.researchId] })).statusCode).toBe(404);

    // Shelves matched by position must have as many displays.
    const db = t.app.ctx.database.db;
    const display = (name: string) => ({ name, image: null, zones: [] });
    const other = await sibling(null, { content_type: 'shelf' });
    await db
      .updateTable('campaigns')
      .set({ content_type: 'shelf', shelf_content_scenario: JSON.stringify([display('A'), display('B')]) })
      .where('id', '=', researchId)
      .execute();
    await db
      .updateTable('campaigns')
      .set({ shelf_content_scenario: JSON.stringify([display('A')]) })
      .where('id', '=', other)
      .execute();
    expect(await fields({ researches: [other] })).toMatchObject({
      researches: { key: 'report.researchItems', params: { first: 2, second: 1 } },
    });
    expect(await t.app.ctx.database.db.selectFrom('reports').select('id').execute()).toEqual([]);
  });
});
