import { REPORT_EXPORTS, REPORT_METRICS } from '@emolens/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertProcessedRespondent, videoResearch } from '../../test/report-rows.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';

/**
 * A report's exports hold what the report shows (issue 28, item 3): every segment's curves beside the overall ones,
 * one column group per segment led by its N, and every header in the language asked for.
 */
const t = appPerFile({}, { queue: true });
let alice: Client;
let researchId: string;
let linkId: string;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  ({ researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 }));
});

/** Two men and a woman; a report of them by sex, built. */
async function reportBySex(): Promise<string> {
  for (const [sex, engagement] of [
    ['man', [0.2, 0.4, 0.6, 0.8]],
    ['woman', [0.4, 0.4, 0.4, 0.4]],
    ['man', [0.6, null, 0.2, 0.0]],
  ] as const) {
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    await t.app.ctx.database.db
      .updateTable('respondent_sessions')
      .set({ sex, age: 30 })
      .where('id', '=', sessionId)
      .execute();
    await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement: [...engagement] });
  }
  const res = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
    body: { name: 'By sex', segment: { by: 'sex' } },
  });
  expect(res.statusCode, res.body).toBe(201);
  await t.app.ctx.queue.run(buildReportJob, { report_id: res.json().id, generation: 1 });
  return res.json().id;
}

const csvRows = (body: string) =>
  body
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(',').map((cell) => cell.replaceAll('"', '')));

/** The first row of an XLSX export's sheet: its header cells' texts. */
function xlsxHeader(bytes: Buffer): string[] {
  const sheet = strFromU8(unzipSync(new Uint8Array(bytes))['xl/worksheets/sheet1.xml'] as Uint8Array);
  const first = /<row r="1">(.*?)<\/row>/.exec(sheet)?.[1] ?? '';
  return [...first.matchAll(/<t xml:space="preserve">(.*?)<\/t>/g)].map((m) => m[1] as string);
}

describe('the curves export', () => {
  it('has every segment’s curves after the overall ones, one column group per segment with its N', async () => {
    const id = await reportBySex();
    const res = await alice.request('GET', `/api/cabinet/reports/${id}/export/?kind=curves&format=csv`);
    expect(res.statusCode).toBe(200);
    const [header = [], ...rows] = csvRows(res.body);
    expect(rows).toHaveLength(4);
    const column = (name: string) => {
      const index = header.indexOf(name);
      expect(index, `${name} in ${header.join(' | ')}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    // Overall, as before: second 0 has 0.2, 0.4, 0.6.
    expect(rows[0]?.[column('engagement_mean')]).toBe('0.4');
    expect(rows[0]?.[column('engagement_n')]).toBe('3');
    // The men: 0.2 and 0.6 at second 0, 0.8 and 0.0 at second 3; the woman alone: 0.4 throughout.
    expect(rows[0]?.[column('Men (N = 2): engagement_n')]).toBe('2');
    expect(rows[0]?.[column('Men (N = 2): engagement_mean')]).toBe('0.4');
    expect(rows[3]?.[column('Men (N = 2): engagement_mean')]).toBe('0.4');
    expect(rows[1]?.[column('Men (N = 2): engagement_n')]).toBe('1');
    expect(rows[3]?.[column('Women (N = 1): engagement_mean')]).toBe('0.4');
    expect(rows[3]?.[column('Women (N = 1): engagement_n')]).toBe('1');
    // Every metric of every segment (seven columns each): the overall group's columns twice more.
    const overall = header.filter((h) => /^[a-z]+_(n|mean|low|high|share|share_low|share_high)$/.test(h));
    expect(overall).toHaveLength(7 * REPORT_METRICS.length);
    expect(overall).toContain('smile_mean');
    expect(header.filter((h) => h.startsWith('Men (N = 2): '))).toHaveLength(7 * REPORT_METRICS.length);
    expect(header.filter((h) => h.startsWith('Women (N = 1): '))).toHaveLength(7 * REPORT_METRICS.length);
  });
});

describe("the respondents export's accuracy and precision in degrees (decisions 043, 052)", () => {
  it('has the degrees at the estimated distance and the distance beside px and %, empty without a distance', async () => {
    for (const distanceCm of [58.6, undefined]) {
      const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
      await insertProcessedRespondent(
        t.app,
        { sessionId, researchId },
        {
          engagement: [0.5, 0.5, 0.5, 0.5],
          accuracyPx: 40,
          precisionPx: 12,
          precisionPercent: 0.75,
          ...(distanceCm ? { distanceCm } : {}),
        },
      );
    }
    const res = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Degrees' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.ctx.queue.run(buildReportJob, { report_id: res.json().id, generation: 1 });
    const csv = await alice.request('GET', `/api/cabinet/reports/${res.json().id}/export/?kind=respondents&format=csv`);
    expect(csv.statusCode).toBe(200);
    const [header, ...rows] = csvRows(csv.body);
    const column = (name: string) => (header ?? []).indexOf(name);
    expect(column('accuracy_degrees')).toBe(column('accuracy_percent') + 1);
    expect(column('precision_px')).toBe(column('accuracy_percent') + 2);
    expect(column('precision_percent')).toBe(column('accuracy_percent') + 3);
    expect(column('precision_degrees')).toBe(column('accuracy_percent') + 4);
    expect(column('distance_cm')).toBe(column('accuracy_percent') + 5);
    // 40 CSS px of 0.2646 mm seen from 58.6 cm: 1.03°; 12 px: atan(3.175 mm / 586 mm) = 0.31°.
    const cells = rows.map((r) =>
      ['accuracy_px', 'accuracy_degrees', 'precision_px', 'precision_percent', 'precision_degrees', 'distance_cm'].map(
        (name) => r[column(name)],
      ),
    );
    expect(cells).toContainEqual(['40', '1.03', '12', '0.75', '0.31', '59']);
    expect(cells).toContainEqual(['40', '', '12', '0.75', '', '']);
  });
});

describe("the respondents export's drift (decision 053)", () => {
  it('has the mean drift in px, % and degrees, its largest, the checkpoints used and the correction; empty without', async () => {
    const drift = {
      checkpoints: [
        { ms: 11_000, dots: 3, samples: 30, offset: { x: 18, y: 24 }, used: true },
        { ms: 13_000, dots: 3, samples: 30, offset: { x: 30, y: 40 }, used: true },
      ],
      meanPx: 40,
      maxPx: 50,
      meanPercent: 2.65,
      corrected: true,
    };
    for (const r of [{ drift, distanceCm: 58.6 }, {}]) {
      const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
      await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement: [0.5, 0.5, 0.5, 0.5], ...r });
    }
    const res = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Drift' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.ctx.queue.run(buildReportJob, { report_id: res.json().id, generation: 1 });
    const csv = await alice.request('GET', `/api/cabinet/reports/${res.json().id}/export/?kind=respondents&format=csv`);
    expect(csv.statusCode).toBe(200);
    const [header, ...rows] = csvRows(csv.body);
    const names = [
      'drift_px',
      'drift_percent',
      'drift_degrees',
      'drift_max_px',
      'drift_checkpoints',
      'drift_corrected',
    ];
    const column = (name: string) => (header ?? []).indexOf(name);
    expect(names.map(column)).toEqual(names.map((_, i) => column('distance_cm') + 1 + i));
    // 40 CSS px of 0.2646 mm seen from 58.6 cm: atan(10.58 / 586) = 1.03°.
    const cells = rows.map((row) => names.map((name) => row[column(name)]));
    expect(cells).toContainEqual(['40', '2.65', '1.03', '50', '2', '1']);
    expect(cells).toContainEqual(['', '', '', '', '', '']);
  });
});

describe("the respondents export's calibration check (decision 050)", () => {
  it('says how the check before the content went for each respondent, empty for one not checked', async () => {
    for (const verdict of ['flagged', 'not_checked', null] as const) {
      const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
      await t.app.ctx.database.db
        .updateTable('respondent_sessions')
        .set({ calibration_check: verdict })
        .where('id', '=', sessionId)
        .execute();
      await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement: [0.5, 0.5, 0.5, 0.5] });
    }
    const res = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Checked' },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.ctx.queue.run(buildReportJob, { report_id: res.json().id, generation: 1 });
    const snapshot = await alice.request('GET', `/api/cabinet/reports/${res.json().id}/`);
    const checks = (snapshot.json().snapshot?.people ?? []).map(
      (p: { calibration_check: string | null }) => p.calibration_check,
    );
    expect(checks).toEqual(expect.arrayContaining(['flagged', 'not_checked', null]));
    const csv = await alice.request('GET', `/api/cabinet/reports/${res.json().id}/export/?kind=respondents&format=csv`);
    const [header, ...rows] = csvRows(csv.body);
    const column = (header ?? []).indexOf('calibration_check');
    expect(column).toBe((header ?? []).indexOf('drift_corrected') + 1);
    expect(rows.map((r) => r[column])).toEqual(expect.arrayContaining(['flagged', 'not_checked', '']));
  });
});

describe('the exports in Russian', () => {
  it('translate every header of every export, not only the answer columns', async () => {
    const id = await reportBySex();
    for (const kind of REPORT_EXPORTS) {
      const get = async (language: string) => {
        const res = await alice.request(
          'GET',
          `/api/cabinet/reports/${id}/export/?kind=${kind}&format=xlsx&language=${language}`,
        );
        expect(res.statusCode).toBe(200);
        return xlsxHeader(res.rawPayload);
      };
      const english = await get('en');
      const russian = await get('ru');
      expect(russian).toHaveLength(english.length);
      // Each column named in Russian: never the English machine name, no snake_case left.
      russian.forEach((header, i) => {
        expect(header, `${kind} column ${i}`).not.toBe(english[i]);
        expect(header, `${kind} column ${i}`).not.toMatch(/_/);
        expect(header, `${kind} column ${i}`).toMatch(/[а-яё]/i);
      });
      if (kind === 'curves') {
        expect(russian).toContain('Вовлечённость, среднее');
        expect(russian).toContain('Мужчины (N = 2): Вовлечённость, среднее');
      }
    }
  });
});
