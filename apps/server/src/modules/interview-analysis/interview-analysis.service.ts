import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DEMO_LIMITS,
  DEMO_TOO_LONG_STATUS,
  type DemoAnalysis,
  type DemoKind,
  type DemoResult,
  type DemoSeries,
  type DemoSummary,
  type DemoUploadMetadata,
  demoUploadMetadataSchema,
  formatMessage,
  isCleanText,
  MEDIA_LIMITS,
  MEDIA_MESSAGES,
  MESSAGES,
  mediaExtension,
  mediaKindOf,
} from '@emolens/contracts';
import {
  decodeFramesTable,
  framesToCsv,
  framesToJson,
  type PerSecondSeries,
  type SessionSummaryOut,
} from '@emolens/engine';
import type { Deps } from '../../context.ts';
import type { DemoAnalysisRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { requireAccess } from '../access/access.ts';
import {
  detectFormat,
  FORMAT_KIND,
  InvalidContent,
  measureDuration,
  probeVideoContent,
  readHead,
} from '../media/content-check.ts';
import { sweepDeletedFiles, UploadRejected } from '../media/media.service.ts';
import { type StoredFile, storedFile } from '../media/serving.ts';
import type { FlagCounts } from './interview-analysis.repository.ts';
import { analyzeDemoJob } from './jobs/analyze-demo.job.ts';

export type InterviewAnalysisDeps = Pick<Deps, 'access' | 'interviewAnalysis' | 'media' | 'storage' | 'queue' | 'log'>;

type ListRow = Omit<DemoAnalysisRow, 'sampling' | 'frames' | 'frame_count' | 'series' | 'people'>;
type StoredSummary = SessionSummaryOut & { flagCounts?: FlagCounts };

/** The metadata kept with a partial demo upload (the declared fields plus who uploads). */
export interface StoredDemoMetadata extends DemoUploadMetadata {
  owner: string;
}

/** A tus upload meant for demo mode or interview analysis (content uploads never carry `demo_kind`). */
export function isDemoUpload(metadata: Record<string, string | null> | undefined): boolean {
  return metadata?.demo_kind !== undefined && metadata.demo_kind !== null;
}

/** Checks a new demo upload before anything is stored: a video's name, a declared length within the limit. */
export function checkDemoUploadCreate(
  user: User,
  upload: { size: number | undefined; metadata: Record<string, string | null> | undefined },
): StoredDemoMetadata {
  const values = Object.fromEntries(Object.entries(upload.metadata ?? {}).map(([k, v]) => [k, v ?? '']));
  if (!Object.entries(values).every(([k, v]) => isCleanText(k) && isCleanText(v))) {
    throw new UploadRejected(400, MEDIA_MESSAGES.invalidMetadata);
  }
  const declared = demoUploadMetadataSchema.safeParse(values);
  if (!declared.success) {
    const issue = declared.error.issues[0];
    const tooLong = issue?.code === 'too_big' && issue.path[0] === 'filename';
    throw new UploadRejected(400, tooLong ? MEDIA_MESSAGES.nameTooLong : MEDIA_MESSAGES.metadataRequired);
  }
  const meta = declared.data;
  const declaredType = meta.filetype.toLowerCase();
  const typeFits = !declaredType || declaredType === 'application/octet-stream' || declaredType.startsWith('video/');
  if (mediaKindOf(meta.filename) !== 'video' || !typeFits) throw new UploadRejected(415, MEDIA_MESSAGES.invalidFormat);
  if (upload.size === undefined) throw new UploadRejected(400, MEDIA_MESSAGES.lengthRequired);
  if (upload.size === 0) throw new UploadRejected(415, MEDIA_MESSAGES.invalidFormat);
  if (upload.size > MEDIA_LIMITS.videoBytes) throw new UploadRejected(413, MEDIA_MESSAGES.tooLarge);
  return { ...meta, owner: user.id };
}

export function demoKeyOf(ownerId: string, id: string, ext: string): string {
  return `demo/${ownerId}/${id}.${ext}`;
}

/**
 * A finished demo upload (`file`, already out of the upload area): decoded as a video whatever its
 * name says, measured (at most 2 hours), stored and queued for the engine. On any refusal the file
 * is removed and nothing is kept.
 */
export async function attachDemoUpload(
  deps: InterviewAnalysisDeps,
  user: User,
  upload: { file: string; size: number; metadata: Record<string, string | null> | undefined },
): Promise<DemoAnalysis> {
  try {
    const meta = checkDemoUploadCreate(user, upload);
    let duration: number | null;
    let mime: string;
    try {
      const format = detectFormat(await readHead(upload.file));
      if (!format || FORMAT_KIND[format] !== 'video')
        throw new InvalidContent('the first bytes are not a video format');
      const info = await probeVideoContent(upload.file);
      duration = info.durationSeconds ?? (await measureDuration(upload.file));
      mime =
        format === 'iso-bmff'
          ? 'video/mp4'
          : mediaExtension(meta.filename) === 'mkv'
            ? 'video/x-matroska'
            : 'video/webm';
    } catch (err) {
      if (!(err instanceof InvalidContent)) throw err;
      deps.log.info({ err, filename: meta.filename }, 'demo upload refused: content does not decode');
      throw new UploadRejected(415, MEDIA_MESSAGES.invalidFormat);
    }
    if (duration !== null && duration > DEMO_LIMITS.fileSeconds) {
      throw new UploadRejected(
        DEMO_TOO_LONG_STATUS,
        formatMessage(MESSAGES['demo.tooLong'], { max: DEMO_LIMITS.fileSeconds / 60 }),
      );
    }
    const id = randomUUID();
    const ext = mime === 'video/mp4' ? 'mp4' : mime === 'video/x-matroska' ? 'mkv' : 'webm';
    const key = demoKeyOf(user.id, id, ext);
    await deps.storage.putFile(key, upload.file, mime);
    try {
      await deps.interviewAnalysis.insert({
        id,
        owner_id: user.id,
        kind: meta.demo_kind,
        filename: meta.filename,
        size: upload.size,
        mime,
        storage_key: key,
        duration_seconds: duration,
      });
    } catch (err) {
      await deps.storage.delete(key).catch(() => undefined);
      throw err;
    }
    await queueAnalysis(deps, id);
    const row = await deps.interviewAnalysis.find(id);
    if (!row) throw new UploadRejected(404, MESSAGES['demo.notFound']);
    return toDemo(row);
  } finally {
    await rm(upload.file, { force: true });
  }
}

async function queueAnalysis(deps: InterviewAnalysisDeps, id: string): Promise<void> {
  try {
    await deps.queue.send(analyzeDemoJob.name, { demo_id: id }, { singletonKey: id });
  } catch (err) {
    deps.log.error({ err, demo: id }, 'demo analysis could not be queued');
    await deps.interviewAnalysis.fail(id, 'internal');
  }
}

function summaryOf(row: ListRow): DemoSummary | null {
  const s = row.summary as StoredSummary | null;
  if (!s) return null;
  return {
    frames: s.frames,
    bad_frames: s.badFrames,
    bad_frame_share: s.badFrameShare,
    face_found: s.faceFound,
    people: s.people,
    mean_engagement: s.meanEngagement,
    mean_valence: s.meanValence,
    attention_share: s.attentionShare,
    // Results of engines before 0.4.0 carry no motion.
    blinks_per_minute: s.motion?.blinksPerMinute ?? null,
    head_degrees_per_second: s.motion?.headDegreesPerSecond ?? null,
    flags: s.flagCounts ?? { no_face: 0, several_faces: 0, head_turned: 0, too_dark: 0 },
  };
}

export function toDemo(row: ListRow): DemoAnalysis {
  return {
    id: row.id,
    kind: row.kind,
    filename: row.filename,
    size: Number(row.size),
    status: row.status,
    progress: row.progress,
    error_code: row.error_code,
    engine_version: row.engine_version,
    duration_seconds: row.duration_seconds,
    recording_seconds: row.recording_seconds,
    sessions_counted: row.sessions_counted,
    summary: summaryOf(row),
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

async function visible(deps: InterviewAnalysisDeps, user: User, id: string) {
  await requireAccess(deps.access, user, 'demoAnalysis.view', id);
  const row = await deps.interviewAnalysis.find(id);
  if (!row) throw new AppError('not_found', { message: 'demo.notFound' });
  return row;
}

export async function listDemo(deps: InterviewAnalysisDeps, user: User, kind: DemoKind): Promise<DemoAnalysis[]> {
  return (await deps.interviewAnalysis.list(user.id, kind)).map(toDemo);
}

export async function getDemo(deps: InterviewAnalysisDeps, user: User, id: string): Promise<DemoAnalysis> {
  return toDemo(await visible(deps, user, id));
}

/** Deletes the analysis and its video (the database records the file; the sweep removes it). */
export async function deleteDemo(deps: InterviewAnalysisDeps, user: User, id: string): Promise<void> {
  await visible(deps, user, id);
  await deps.interviewAnalysis.delete(id);
  await sweepDeletedFiles(deps);
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

function seriesOf(s: PerSecondSeries): DemoSeries {
  return {
    second: s.second,
    engagement: s.engagement,
    valence: s.valence,
    attention: s.attention,
    expressions: s.expressions,
    // Series of engines before 0.4.0 carry no face signals.
    smile: s.smile ?? [],
    distracted: s.distracted ?? [],
    head_motion: s.headMotion ?? [],
  };
}

async function finishedResult(deps: InterviewAnalysisDeps, user: User, id: string) {
  const row = await visible(deps, user, id);
  const stored = row.status === 'done' ? await deps.interviewAnalysis.result(id) : undefined;
  if (!stored?.frames || !stored.series || !stored.sampling) {
    throw new AppError('not_found', { message: 'demo.notReady' });
  }
  return { row, stored: { ...stored, frames: stored.frames, series: stored.series, sampling: stored.sampling } };
}

/** The curves, the tracked people and the main face's box per frame, for the result page. */
export async function demoResult(deps: InterviewAnalysisDeps, user: User, id: string): Promise<DemoResult> {
  const { row, stored } = await finishedResult(deps, user, id);
  const table = decodeFramesTable(stored.frames);
  const num = (column: ArrayLike<number>, i: number) => {
    const v = column[i] as number;
    return Number.isNaN(v) ? null : round(v, 1);
  };
  const c = table.columns;
  const boxes: DemoResult['boxes'] = { time: [], x: [], y: [], w: [], h: [] };
  for (let i = 0; i < table.rows; i++) {
    boxes.time.push(round(c.time[i] as number, 3));
    boxes.x.push(num(c.box_x, i));
    boxes.y.push(num(c.box_y, i));
    boxes.w.push(num(c.box_w, i));
    boxes.h.push(num(c.box_h, i));
  }
  return {
    analysis: toDemo(row),
    sampling: stored.sampling,
    series: seriesOf(stored.series),
    people: (stored.people ?? []).map((p) => ({
      track: p.track,
      first_seconds: p.firstSeconds,
      last_seconds: p.lastSeconds,
      frames: p.frames,
      series: seriesOf(p.series),
      moments: p.moments,
    })),
    boxes,
  };
}

/** The stored video. */
export async function demoFile(deps: InterviewAnalysisDeps, user: User, id: string): Promise<StoredFile> {
  const row = await visible(deps, user, id);
  return storedFile(row.storage_key, Number(row.size), row.mime, row.filename);
}

/** Rows per slice of an export: memory stays bounded by a slice's text, not the recording's. */
const EXPORT_SLICE = 2000;

/**
 * The per-frame data as the codec exports it (CSV or JSON), produced slice by slice so a two-hour
 * interview streams out instead of being built as one string.
 */
export async function exportFrames(
  deps: InterviewAnalysisDeps,
  user: User,
  id: string,
  format: 'csv' | 'json',
): Promise<{ filename: string; body: Readable }> {
  const { row, stored } = await finishedResult(deps, user, id);
  const table = decodeFramesTable(stored.frames);
  const slice = (start: number, end: number) => ({
    rows: end - start,
    columns: Object.fromEntries(
      Object.entries(table.columns).map(([k, v]) => [k, v.subarray(start, end)]),
    ) as typeof table.columns,
    faces: null,
    gaze: null,
  });
  const faceSlice = (start: number, end: number) =>
    table.faces
      ? {
          rows: 0,
          columns: table.columns,
          faces: {
            rows: end - start,
            columns: Object.fromEntries(
              Object.entries(table.faces.columns).map(([k, v]) => [k, v.subarray(start, end)]),
            ) as typeof table.faces.columns,
          },
          gaze: null,
        }
      : null;
  const base = row.filename.replace(/\.[^.]*$/, '') || 'frames';
  function* csv() {
    for (let start = 0; start < Math.max(table.rows, 1); start += EXPORT_SLICE) {
      const text = framesToCsv(slice(start, Math.min(table.rows, start + EXPORT_SLICE)));
      // Every slice repeats the header line: only the first keeps it.
      yield start === 0 ? text : text.slice(text.indexOf('\n') + 1);
    }
    const faces = table.faces;
    if (!faces) return;
    for (let start = 0; start < faces.rows; start += EXPORT_SLICE) {
      const part = faceSlice(start, Math.min(faces.rows, start + EXPORT_SLICE));
      if (!part) return;
      // A frame table of no rows: its header line, a blank line, then the face table.
      const text = framesToCsv(part);
      const facesPart = text.slice(text.indexOf('\n\n') + 2);
      yield start === 0 ? `\n${facesPart}` : facesPart.slice(facesPart.indexOf('\n') + 1);
    }
  }
  function* json() {
    yield '{"frames":[';
    for (let start = 0; start < table.rows; start += EXPORT_SLICE) {
      const { frames } = framesToJson(slice(start, Math.min(table.rows, start + EXPORT_SLICE)));
      yield (start === 0 ? '' : ',') + frames.map((f) => JSON.stringify(f)).join(',');
    }
    yield '],"faces":[';
    const faces = table.faces;
    if (faces) {
      for (let start = 0; start < faces.rows; start += EXPORT_SLICE) {
        const part = faceSlice(start, Math.min(faces.rows, start + EXPORT_SLICE));
        if (!part) break;
        const rows = framesToJson(part).faces;
        yield (start === 0 ? '' : ',') + rows.map((f) => JSON.stringify(f)).join(',');
      }
    }
    yield ']}\n';
  }
  return {
    filename: `${base}.frames.${format}`,
    body: Readable.from(format === 'csv' ? csv() : json()),
  };
}
