import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type HeatmapGrid,
  type Question,
  type QuestionStatistics,
  questionSchema,
  REPORT_METRICS,
  type ReportItem,
  type ReportSnapshot,
} from '@emolens/contracts';
import { ffmpegPaths } from '@emolens/engine';
import type { PresentationInput } from './presentation.ts';

/**
 * A built report's snapshot as the build writes it, with every part a presentation draws: a 4-second video seen by
 * three respondents (two men, a woman), segments by sex, key moments, heatmaps, a drawn area with a time window and
 * one without, a benchmark, and a questionnaire with a choice question and a number question. For the presentation's
 * tests, which draw it without a database.
 */
const SECONDS = [0, 1, 2, 3];

const curve = (mean: number[], n = 3) => ({
  n: mean.map(() => n),
  mean,
  low: mean.map((m) => Math.max(0, m - 0.1)),
  high: mean.map((m) => Math.min(1, m + 0.1)),
  share_above: mean.map((m) => (m > 0.5 ? 2 / 3 : 1 / 3)),
  share_low: mean.map(() => 0.1),
  share_high: mean.map(() => 0.9),
});

const curves = (engagement: number[], n = 3) =>
  Object.fromEntries(
    REPORT_METRICS.map((m, i) => [m, curve(i < 3 ? engagement.map((v) => v / (i + 1)) : engagement.map(() => 0.1), n)]),
  ) as ReportItem['curves'];

/** A grid hot in its top-left corner. */
const grid = (hot: number): HeatmapGrid => {
  const cols = 16;
  const rows = 8;
  return {
    cols,
    rows,
    cells: Array.from({ length: cols * rows }, (_, i) => (i % cols === hot && Math.floor(i / cols) === 1 ? 255 : 0)),
    samples: 120,
  };
};

export function fixtureSnapshot(): ReportSnapshot {
  const people = [
    { sex: 'man', engagement: 0.5 },
    { sex: 'woman', engagement: 0.45 },
    { sex: 'man', engagement: 0.425 },
  ].map((p, i) => ({
    session_id: `00000000-0000-4000-8000-00000000000${i}`,
    campaign_id: '00000000-0000-4000-8000-0000000000aa',
    process_id: `00000000-0000-4000-8000-00000000010${i}`,
    participant_id: null,
    status: 'completed',
    sex: p.sex,
    age: 30 + i,
    started_at: '2026-11-01T10:00:00.000Z',
    bad_frame_share: 0,
    accuracy_px: 40,
    accuracy_percent: 3,
    grade: 'A' as const,
    included: true,
    excluded_reason: null,
    resting_happy: 0,
    mean_engagement: p.engagement,
  }));
  const item: ReportItem = {
    index: 0,
    width: 640,
    height: 320,
    media_id: '00000000-0000-4000-8000-0000000000bb',
    label: 'Spring launch.mp4',
    seconds: SECONDS,
    curves: curves([0.4, 0.53, 0.4, 0.4]),
    step_curves: null,
    segments: [
      { key: 'man', labels: null, respondents: 2, curves: curves([0.4, 0.55, 0.4, 0.45], 2) },
      { key: 'woman', labels: null, respondents: 1, curves: curves([0.4, 0.5, 0.4, 0.3], 1) },
    ],
    moments: [
      { second: 1, kind: 'peak', value: 0.53, prominence: 0.13 },
      { second: 2, kind: 'drop', value: 0.4, prominence: 0.13 },
    ],
    heatmap: grid(2),
    heatmap_frames: SECONDS.map((s) => grid(2 + s * 3)),
    kernel_px: 14.3,
    fixations: 9,
    gaze_respondents: 3,
    areas: [
      {
        id: 'A1',
        name: 'Logo',
        source: 'drawn',
        x: 32,
        y: 16,
        width: 160,
        height: 80,
        from: null,
        to: null,
        respondents: 12,
        looked: 11,
        looked_share: 11 / 12,
        time_to_first_fixation: 0.4,
        dwell_time: 1.25,
        dwell_share: 0.917,
        revisits: 0.5,
        fixation_count: 4.25,
        clicks: null,
      },
      {
        id: 'A2',
        name: 'Pack shot',
        source: 'drawn',
        x: 400,
        y: 160,
        width: 200,
        height: 120,
        from: 2,
        to: 4,
        respondents: 12,
        looked: 3,
        looked_share: 0.25,
        time_to_first_fixation: null,
        dwell_time: 0.2,
        dwell_share: 0.083,
        revisits: null,
        fixation_count: 0.75,
        clicks: null,
      },
    ],
  };
  return {
    method: 't-interval',
    timeline: 'video',
    step: 1,
    threshold: 0.5,
    type: 'shift',
    respondents: 3,
    engine_versions: ['test-1'],
    researches: [{ id: '00000000-0000-4000-8000-0000000000aa', title: 'Spring', respondents: 3 }],
    items: [item],
    people,
    tasks: [],
    benchmark: {
      subtype: 'Beer ads',
      content_type: 'video',
      researches: 12,
      imported: 30,
      whole_sample: true,
      metrics: [
        { metric: 'mean_engagement', value: 0.4575, percentile: 91.66 },
        { metric: 'peak_engagement', value: 0.53, percentile: 50 },
        { metric: 'mean_valence', value: 0.2, percentile: 12.5 },
        { metric: 'mean_attention', value: 0.9, percentile: 75 },
        { metric: 'score', value: 58.25, percentile: 66.7 },
      ],
    },
  } as ReportSnapshot;
}

const text = (en: string, ru: string) => ({ en, ru, id: '', ko: '' });

export function fixtureQuestionnaire(): PresentationInput['questionnaires'][number] {
  const questions: Question[] = [
    questionSchema.parse({
      id: 'brand',
      type: 'single',
      text: text('Which brand do you buy?', 'Какой бренд вы покупаете?'),
      options: [
        { id: 'a', text: text('Alpha', 'Альфа') },
        { id: 'b', text: text('Beta', 'Бета') },
        { id: 'c', text: text('Neither', 'Ни один') },
      ],
    }),
    questionSchema.parse({ id: 'bottles', type: 'number', text: text('Bottles a week', 'Бутылок в неделю') }),
  ];
  const statistics: QuestionStatistics[] = [
    {
      id: 'brand',
      type: 'single',
      shown: 12,
      answered: 12,
      options: [
        { id: 'a', count: 11, share: 11 / 12 },
        { id: 'b', count: 1, share: 1 / 12 },
        { id: 'c', count: 0, share: 0 },
      ],
      other: null,
      numbers: null,
      texts: [],
      rows: [],
    },
    {
      id: 'bottles',
      type: 'number',
      shown: 12,
      answered: 12,
      options: [],
      other: null,
      numbers: { mean: 2.4167, median: 2, sd: 1.3114, min: 0, max: 5, distribution: [] },
      texts: [],
      rows: [],
    },
  ];
  return { title: 'Survey', questions, statistics };
}

/** The fixture's video: a test pattern, 640 × 320, 4 s; and frames of it as the render child takes them. */
export async function fixtureFrames(dir: string): Promise<{ video: string; frames: Map<number, Uint8Array> }> {
  const video = join(dir, 'content.mp4');
  execFileSync(ffmpegPaths().ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x320:rate=25', '-t', '4'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', video],
  ]);
  const frames = new Map<number, Uint8Array>();
  for (const second of [1, 2]) {
    const png = join(dir, `frame-${second}.png`);
    execFileSync(ffmpegPaths().ffmpeg, [
      ...['-v', 'error', '-y', '-ss', `${second + 0.5}`, '-i', video, '-frames:v', '1', png],
    ]);
    frames.set(second, await readFile(png));
  }
  return { video, frames };
}
