import { randomUUID } from 'node:crypto';
import {
  ENGINE_VERSION,
  EXPRESSIONS,
  type Expression,
  encodeFrames,
  type FrameRow,
  framesTable,
  type PerSecondSeries,
  type SessionDrift,
  type SessionSummaryOut,
} from '@emolens/engine';
import type { FastifyInstance } from 'fastify';
import { reportDigest } from '../modules/processing/digest.ts';
import { driftColumns } from '../modules/processing/drift-columns.ts';
import { type Client, insertMedia } from './harness.ts';
import { insertRespondentSession } from './respondent-rows.ts';

/**
 * A processed respondent written straight to the database with values chosen by the test, so that report
 * arithmetic can be checked against hand-computed figures (the engine that makes real values has its own tests;
 * processing-flow.test.ts runs it end to end).
 */
export interface SyntheticRespondent {
  /** Engagement per second of the content (item 0); null: no good frame in that second. */
  engagement: (number | null)[];
  /** Happy per second (other expressions share the rest equally). */
  happy?: (number | null)[];
  /** The engine's smile index per second (0..1, from the respondent's rest); none by default. */
  smile?: (number | null)[];
  /** Mean happy during the calibration (its frames, before the content). */
  restingHappy?: number;
  baselineEngagement?: number | null;
  /** A website task's progress per second (steps reached); 0 throughout when absent. */
  steps?: number[];
  /** Gaze samples on item 0 at 10 Hz from the content's start, content pixels. */
  gaze?: { x: number; y: number }[];
  usable?: boolean;
  accuracyPx?: number | null;
  accuracyPercent?: number | null;
  /** The distance estimated from the iris (decision 043), cm; none by default. */
  distanceCm?: number;
  /** The gaze's precision on the validation dots (decision 052), px and % of the diagonal; none by default. */
  precisionPx?: number;
  precisionPercent?: number;
  /** What the drift checkpoints measured (`summary.drift`, decision 053), stored as processing stores it; none by default. */
  drift?: SessionDrift;
  badFrameShare?: number;
}

const CONTENT_START_S = 10;

function expressions(happy: number): Record<Expression, number> {
  const rest = (1 - happy) / (EXPRESSIONS.length - 1);
  return Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'happy' ? happy : rest])) as Record<Expression, number>;
}

function framesOf(r: SyntheticRespondent): Uint8Array {
  const rows: FrameRow[] = [];
  const face = (happy: number): FrameRow['face'] => ({
    box: { x: 10, y: 10, width: 100, height: 100 },
    score: 0.9,
    pose: { yaw: 0, pitch: 0, roll: 0 },
    expressions: expressions(happy),
  });
  // Calibration: 2 s at 10 Hz before the content.
  for (let i = 0; i < 20; i++) {
    rows.push({
      time: CONTENT_START_S - 2 + i / 10,
      faceCount: 1,
      flags: [],
      bad: false,
      face: face(r.restingHappy ?? 0),
      gaze: null,
      item: -1,
      content: null,
    });
  }
  const seconds = Math.max(r.engagement.length, Math.ceil((r.gaze?.length ?? 0) / 10));
  for (let i = 0; i < seconds * 10; i++) {
    const point = r.gaze?.[i] ?? null;
    rows.push({
      time: CONTENT_START_S + i / 10,
      faceCount: 1,
      flags: [],
      bad: false,
      face: face(r.happy?.[Math.floor(i / 10)] ?? 0),
      gaze: point,
      item: 0,
      content: point,
    });
  }
  return encodeFrames(framesTable(rows));
}

function seriesOf(r: SyntheticRespondent): PerSecondSeries {
  const n = r.engagement.length;
  const nulls = () => Array.from({ length: n }, () => null);
  const gazeAt = (s: number, axis: 'x' | 'y') => {
    const points = (r.gaze ?? []).slice(s * 10, s * 10 + 10);
    return points.length ? points.reduce((sum, p) => sum + p[axis], 0) / points.length : null;
  };
  return {
    timeline: 'video',
    item: Array.from({ length: n }, () => 0),
    step: Array.from({ length: n }, (_, s) => r.steps?.[s] ?? 0),
    second: Array.from({ length: n }, (_, s) => s),
    frames: Array.from({ length: n }, () => 10),
    goodFrames: r.engagement.map((v) => (v === null ? 0 : 10)),
    engagement: r.engagement,
    valence: r.engagement.map((v) => (v === null ? null : v / 2)),
    attention: r.engagement.map((v) => (v === null ? null : 1)),
    expressions: Object.fromEntries(
      EXPRESSIONS.map((e) => [
        e,
        r.engagement.map((v, s) => {
          if (v === null) return null;
          const happy = r.happy?.[s] ?? 0;
          return e === 'happy' ? happy : expressions(happy)[e];
        }),
      ]),
    ) as PerSecondSeries['expressions'],
    gazeX: Array.from({ length: n }, (_, s) => gazeAt(s, 'x')),
    gazeY: Array.from({ length: n }, (_, s) => gazeAt(s, 'y')),
    actionUnits: {} as PerSecondSeries['actionUnits'],
    actionUnitChanges: {} as PerSecondSeries['actionUnitChanges'],
    smile: r.smile ?? nulls(),
    headMotion: nulls(),
    blinks: Array.from({ length: n }, () => 0),
    distracted: nulls(),
  };
}

/** A completed session of the link by a man of 30, processed in the research with `r`; the session id. */
export async function insertCompletedManOf30(
  app: FastifyInstance,
  row: { linkId: string; researchId: string },
  r: SyntheticRespondent,
): Promise<string> {
  const sessionId = await insertRespondentSession(app, { linkId: row.linkId, status: 'completed' });
  await app.ctx.database.db
    .updateTable('respondent_sessions')
    .set({ sex: 'man', age: 30 })
    .where('id', '=', sessionId)
    .execute();
  await insertProcessedRespondent(app, { sessionId, researchId: row.researchId }, r);
  return sessionId;
}

/** The session's video process of the research, done, with the respondent's synthetic result; the process id. */
export async function insertProcessedRespondent(
  app: FastifyInstance,
  row: { sessionId: string; researchId: string },
  r: SyntheticRespondent,
): Promise<string> {
  const db = app.ctx.database.db;
  let processId: string = randomUUID();
  const resultId = randomUUID();
  const usable = r.usable ?? true;
  const values = r.engagement.filter((v): v is number => v !== null);
  const summary: SessionSummaryOut = {
    frames: 20 + r.engagement.length * 10,
    badFrames: 0,
    badFrameShare: r.badFrameShare ?? 0,
    faceFound: true,
    usable,
    excludedReason: usable ? null : 'bad_frames',
    calibration: {
      status: r.accuracyPx === null ? 'not_run' : 'calibrated',
      accuracyPx: r.accuracyPx ?? 40,
      accuracyPercent: r.accuracyPercent ?? 3,
      reason: null,
      validation: [],
    },
    screen: { width: 1280, height: 800, devicePixelRatio: 1 },
    windowMs: { start: CONTENT_START_S * 1000, end: (CONTENT_START_S + r.engagement.length) * 1000 },
    drift: r.drift ?? null,
    meanEngagement: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
    meanValence: null,
    attentionShare: 1,
    people: 1,
    baseline:
      r.baselineEngagement === undefined
        ? null
        : { frames: 20, engagement: r.baselineEngagement, valence: null, actionUnits: null },
  };
  const frames = framesOf(r);
  const series = seriesOf(r);
  // The session's process of the research (completing a session makes one), done; else a new one.
  const existing = await db
    .selectFrom('video_processes')
    .select('id')
    .where('session_id', '=', row.sessionId)
    .where('campaign_id', '=', row.researchId)
    .executeTakeFirst();
  if (existing) {
    processId = existing.id;
    await db
      .updateTable('video_processes')
      .set({ status: 'done', progress: 100 })
      .where('id', '=', processId)
      .execute();
  } else {
    await db
      .insertInto('video_processes')
      .values({ id: processId, session_id: row.sessionId, campaign_id: row.researchId, status: 'done', progress: 100 })
      .execute();
  }
  await db
    .insertInto('process_results')
    .values({
      id: resultId,
      process_id: processId,
      generation: 0,
      engine_version: ENGINE_VERSION,
      recording_seconds: CONTENT_START_S + r.engagement.length,
      fps: 10,
      frame_count: summary.frames,
      frames,
      series: JSON.stringify(series),
      people: '[]',
      summary: JSON.stringify(summary),
      face_found: true,
      bad_frame_share: summary.badFrameShare,
      usable,
      excluded_reason: summary.excludedReason,
      calibration_status: summary.calibration.status,
      calibration_accuracy_px: r.accuracyPx === undefined ? 40 : r.accuracyPx,
      calibration_accuracy_percent: r.accuracyPercent === undefined ? 3 : r.accuracyPercent,
      calibration_precision_px: r.precisionPx ?? null,
      calibration_precision_percent: r.precisionPercent ?? null,
      ...driftColumns(summary.drift),
      distance_cm: r.distanceCm ?? null,
      mean_engagement: summary.meanEngagement,
      // As processing writes it (a test may clear it to check the digest made at the first report).
      report_digest: reportDigest(frames, series, summary.windowMs.start),
    })
    .execute();
  await db.updateTable('video_processes').set({ result_id: resultId }).where('id', '=', processId).execute();
  return processId;
}

/**
 * A launched project of the client's user (`owner`, their username) whose research's content is a video of `size` (a media row, ready; no
 * stored bytes): the research, its quota link and the video's media row with its storage key.
 */
export async function videoResearch(
  app: FastifyInstance,
  client: Client,
  owner: string,
  size: { width: number; height: number; seconds: number },
): Promise<{ researchId: string; linkId: string; storageKey: string }> {
  const project = await client.draftProject();
  await client.readyToLaunch(project);
  const [research] = (await client.request('GET', `/api/cabinet/campaigns/?project_id=${project}`)).json().items;
  const [link] = (await client.request('GET', `/api/cabinet/projects/${project}/project-accessor-links/`)).json().items;
  const db = app.ctx.database.db;
  await db.updateTable('campaigns').set({ content_type: 'video' }).where('id', '=', research.id).execute();
  const video = await insertMedia(app, {
    researchId: research.id,
    owner,
    kind: 'video',
    status: 'ready',
    duration_seconds: size.seconds,
  });
  const row = await db
    .updateTable('media')
    .set({ width: size.width, height: size.height })
    .where('id', '=', video)
    .returning('storage_key')
    .executeTakeFirstOrThrow();
  return { researchId: research.id, linkId: link.id, storageKey: row.storage_key };
}
