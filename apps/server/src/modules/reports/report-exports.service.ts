import {
  type AreaShape,
  builtShape,
  EMPTY_RESPONSE_FILTER,
  type Language,
  REPORT_METRICS,
  type ReportArea,
  type ReportItem,
  type ReportSnapshot,
  type reportExportQuery,
  reportFormat,
  SURVEY_SLOTS,
} from '@emolens/contracts';
import { EXPRESSIONS, type PerSecondSeries } from '@emolens/engine';
import type { z } from 'zod';
import type { User } from '../../db/types.ts';
import { type CsvValue, toCsv } from '../../http/csv.ts';
import { toXlsx, XLSX_TYPE } from '../../http/xlsx.ts';
import { answerCells, exportColumns } from '../surveys/survey-statistics.service.ts';
import { AREA_COLUMNS, CURVE_STATS, exportHeaders, QUALITY_COLUMNS } from './export-texts.ts';
import { fixationFilterText } from './files/fixation-filter-text.ts';
import { FILE_TEXTS, segmentName } from './files/texts.ts';
import { builtSnapshot, type ReportsDeps } from './reports.service.ts';

/**
 * A built report's exports (XLSX or CSV): the curves per point — overall and per segment —, the areas of interest,
 * the respondents with their answers, each respondent's series. Every header in the language asked for
 * (`export-texts.ts`).
 */
type Headers = ReturnType<typeof exportHeaders>;

/** The segments of the report's items, in their order of first appearance, with the largest N any item gives. */
function segmentsOf(s: ReportSnapshot) {
  const found = new Map<string, ReportItem['segments'][number]>();
  for (const item of s.items) {
    for (const segment of item.segments) {
      const seen = found.get(segment.key);
      if (!seen || segment.respondents > seen.respondents) found.set(segment.key, segment);
    }
  }
  return [...found.values()];
}

/**
 * Per item, point and metric: N, mean, band, share above the threshold with its 95% interval — overall, then one
 * column group per segment (sex, an answer, a pooled research), led by its name and N. A website task's points by
 * its progress follow its time points (steps reached filled, second empty; segments have none).
 */
function curveTable(s: ReportSnapshot, h: Headers, language: Language): CsvValue[][] {
  const stats = REPORT_METRICS.flatMap((m) => CURVE_STATS.map((stat) => h.stat(m, stat)));
  const segments = segmentsOf(s);
  const header = [
    h.column('item'),
    h.column('label'),
    h.column('second'),
    h.column('steps_reached'),
    ...stats,
    ...segments.flatMap((segment) =>
      stats.map((column) => h.segment(segmentName(segment, language), segment.respondents, column)),
    ),
  ];
  const rows: CsvValue[][] = [header];
  const values = (curves: ReportItem['curves'] | undefined, p: number) =>
    REPORT_METRICS.flatMap((m) => {
      const c = curves?.[m];
      return c
        ? [c.n[p], c.mean[p], c.low[p], c.high[p], c.share_above[p], c.share_low[p], c.share_high[p]]
        : CURVE_STATS.map(() => null);
    });
  for (const item of s.items) {
    const own = new Map(item.segments.map((segment) => [segment.key, segment.curves]));
    item.seconds.forEach((second, p) => {
      rows.push([
        item.index + 1,
        item.label,
        second,
        null,
        ...values(item.curves, p),
        ...segments.flatMap((segment) => values(own.get(segment.key), p)),
      ]);
    });
    const steps = item.step_curves;
    steps?.engagement.n.forEach((_, p) => {
      rows.push([item.index + 1, item.label, null, p, ...values(steps, p)]);
    });
  }
  return rows;
}

/**
 * An area's shape columns: its kind, a polygon's points (px, `x y; x y`) and a moving area's key frames
 * (`t: x y width height` or `t: x y; x y`, separated by ` | `); a report built before shapes: a rectangle.
 */
function shapeCells(a: ReportArea): CsvValue[] {
  const shape = builtShape(a);
  const px = (v: number) => Math.round(v);
  const written = (s: AreaShape) =>
    s.kind === 'rectangle'
      ? `${px(s.x)} ${px(s.y)} ${px(s.width)} ${px(s.height)}`
      : s.points.map((p) => `${px(p.x)} ${px(p.y)}`).join('; ');
  return [
    shape.kind,
    shape.kind === 'polygon' ? written(shape) : null,
    a.key_frames?.length ? a.key_frames.map((k) => `${k.t}: ${written(k.shape)}`).join(' | ') : null,
  ];
}

/**
 * Per item and area of interest: who looked, when first, how long, how often back, how many fixations, and the filter
 * (with its settings) that made those fixations.
 */
function areaTable(s: ReportSnapshot, h: Headers, language: Language): CsvValue[][] {
  const filter = fixationFilterText(FILE_TEXTS[language], reportFormat(language), s.fixation_filter);
  return [
    AREA_COLUMNS.map(h.column),
    ...s.items.flatMap((item) =>
      item.areas.map((a) => [
        item.index + 1,
        item.label,
        a.id,
        a.name,
        Math.round(a.x),
        Math.round(a.y),
        Math.round(a.width),
        Math.round(a.height),
        a.from,
        a.to,
        ...shapeCells(a),
        a.respondents,
        a.looked,
        a.looked_share,
        a.time_to_first_fixation,
        a.dwell_time,
        a.dwell_share,
        a.revisits,
        a.fixation_count,
        a.clicks,
        filter,
      ]),
    ),
  ];
}

/**
 * The respondents with their answers: the research's screener and survey, one column per answer as the
 * questionnaire export writes them (in `language`), after the quality columns.
 */
async function respondentTable(
  deps: ReportsDeps,
  researchId: string,
  s: ReportSnapshot,
  h: Headers,
  language: Language,
): Promise<CsvValue[][]> {
  const sessions = s.people.map((p) => p.session_id);
  const slots = await deps.surveys.ofResearch(researchId);
  const questionnaires = await Promise.all(
    SURVEY_SLOTS.flatMap((slot) => {
      const survey = slots[slot];
      if (!survey) return [];
      return [
        deps.surveys.responses(researchId, survey.id, EMPTY_RESPONSE_FILTER, sessions).then((rows) => ({
          slot,
          columns: exportColumns(survey.questions, language),
          answers: new Map(rows.map((r) => [r.session_id, r.answers])),
        })),
      ];
    }),
  );
  const table = qualityTable(s, h);
  table[0]?.push(...questionnaires.flatMap((q) => q.columns.map((c) => `${h.slot(q.slot)}: ${c.title}`)));
  s.people.forEach((p, i) => {
    table[i + 1]?.push(...questionnaires.flatMap((q) => answerCells(q.columns, q.answers.get(p.session_id))));
  });
  return table;
}

function qualityTable(s: ReportSnapshot, h: Headers): CsvValue[][] {
  const titles = new Map(s.researches.map((r) => [r.id, r.title]));
  return [
    QUALITY_COLUMNS.map(h.column),
    ...s.people.map((p) => [
      p.session_id,
      titles.get(p.campaign_id) ?? p.campaign_id,
      p.process_id,
      p.participant_id,
      p.status,
      p.sex,
      p.age,
      p.started_at,
      p.bad_frame_share,
      p.accuracy_px,
      p.accuracy_percent,
      p.accuracy_degrees ?? null,
      p.precision_px ?? null,
      p.precision_percent ?? null,
      p.precision_degrees ?? null,
      p.distance_cm ?? null,
      p.drift?.mean_px ?? null,
      p.drift?.mean_percent ?? null,
      p.drift?.mean_degrees ?? null,
      p.drift?.max_px ?? null,
      p.drift?.checkpoints ?? null,
      p.drift ? (p.drift.corrected ? 1 : 0) : null,
      p.calibration_check ?? null,
      p.grade,
      p.included ? 1 : 0,
      p.excluded_reason,
      p.resting_happy,
      p.mean_engagement,
    ]),
  ];
}

/** Per included respondent and bucket of their stored series: the engine's per-second values (not baseline-corrected). */
function seriesTable(
  rows: { process_id: string; session_id: string; series: PerSecondSeries }[],
  h: Headers,
): CsvValue[][] {
  const table: CsvValue[][] = [
    [
      ...(['session', 'process', 'item', 'step', 'second'] as const).map(h.column),
      ...(['engagement', 'valence', 'attention', ...EXPRESSIONS] as const).map(h.metric),
      h.column('gaze_x'),
      h.column('gaze_y'),
    ],
  ];
  for (const { process_id, session_id, series: s } of rows) {
    for (let k = 0; k < s.second.length; k++) {
      table.push([
        session_id,
        process_id,
        (s.item[k] ?? 0) + 1,
        s.step[k],
        s.second[k],
        s.engagement[k],
        s.valence[k],
        s.attention[k],
        ...EXPRESSIONS.map((e) => s.expressions[e][k]),
        s.gazeX[k],
        s.gazeY[k],
      ]);
    }
  }
  return table;
}

/** GET /api/cabinet/reports/{id}/export/?kind=&format=&language= */
export async function exportReport(
  deps: ReportsDeps,
  user: User,
  id: string,
  { kind, format, language }: z.infer<typeof reportExportQuery>,
): Promise<{ filename: string; type: string; body: string | Uint8Array }> {
  const { row, snapshot } = await builtSnapshot(deps, user, id);
  const h = exportHeaders(language);
  const table =
    kind === 'curves'
      ? curveTable(snapshot, h, language)
      : kind === 'areas'
        ? areaTable(snapshot, h, language)
        : kind === 'respondents'
          ? await respondentTable(deps, row.campaign_id, snapshot, h, language)
          : seriesTable(
              await deps.reports.seriesOf(snapshot.people.filter((p) => p.included).map((p) => p.process_id)),
              h,
            );
  const base = `${row.name} - ${kind}`;
  return format === 'csv'
    ? { filename: `${base}.csv`, type: 'text/csv; charset=utf-8', body: toCsv(table) }
    : { filename: `${base}.xlsx`, type: XLSX_TYPE, body: toXlsx(row.name, table) };
}
