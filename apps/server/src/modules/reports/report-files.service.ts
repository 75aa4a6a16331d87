import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type generateReportFileInput,
  MADE_FILE_TYPES,
  PRESENTATION_UPLOAD_MAX,
  PRESENTATION_UPLOAD_TYPES,
  REPORT_FILE_KINDS,
  type ReportFile,
  type ReportFileKind,
  type ReportFilesOutput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { ReportFileRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { presentationFormat } from '../media/content-check.ts';
import { type StoredFile, storedFile } from '../media/serving.ts';
import { makeReportFileJob } from './jobs/make-report-file.job.ts';
import { REPORT_FILE_STALE_MS } from './report-files.repository.ts';
import { reportOf } from './reports.service.ts';

/**
 * A report's files (issue 13, item 8; the spec's presentation attach screen): the presentation and the video
 * export of a built report — made by the `make-report-file` job on request, downloaded, removed; a presentation
 * replaced by the analyst's own PDF or PPTX. What the analyst may do with each is decided here and sent as `can`.
 */
export type ReportFilesDeps = Pick<Deps, 'access' | 'reports' | 'reportFiles' | 'storage' | 'queue' | 'log'>;

type Report = Awaited<ReturnType<typeof reportOf>>;

/**
 * Whether a file is being made: in progress and heard from within REPORT_FILE_STALE_MS. An attempt silent for longer
 * (its worker died on the last retry) holds nothing and shows as failed.
 */
const isRunning = (row: ReportFileRow | undefined) =>
  row?.status === 'in_progress' && Date.now() - new Date(row.updated_at).getTime() < REPORT_FILE_STALE_MS;

function fileOf(
  kind: ReportFileKind,
  row: ReportFileRow | undefined,
  report: Report,
  videoContent: boolean,
): ReportFile {
  const built = report.status === 'done' && !report.failed;
  const running = isRunning(row);
  const stale = row?.status === 'in_progress' && !running;
  const possible = built && (kind === 'presentation' || videoContent);
  return {
    kind,
    status: stale ? 'failed' : (row?.status ?? 'none'),
    source: row?.source ?? null,
    progress: stale ? 0 : (row?.progress ?? 0),
    error_key: row?.status === 'failed' ? row.error_key : stale ? 'report.fileFailed' : null,
    filename: row?.status === 'done' ? row.filename : null,
    size: row?.status === 'done' && row.size !== null ? Number(row.size) : null,
    language: row?.source === 'generated' ? row.language : null,
    outdated: !!row && row.source === 'generated' && row.status === 'done' && row.generation !== report.generation,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
    can: {
      generate: possible && !running,
      download: row?.status === 'done',
      upload: kind === 'presentation' && built,
      remove: !!row && !running,
    },
  };
}

async function contentTypeOf(deps: ReportFilesDeps, report: Report): Promise<string> {
  return (await deps.reports.research(report.campaign_id))?.content_type ?? '';
}

/** GET /api/cabinet/reports/{id}/files/ */
export async function listReportFiles(deps: ReportFilesDeps, user: User, id: string): Promise<ReportFilesOutput> {
  const report = await reportOf(deps, user, id);
  const rows = await deps.reportFiles.list(id);
  const contentType = await contentTypeOf(deps, report);
  return {
    report: { id: report.id, name: report.name, status: report.status, content_type: contentType },
    files: REPORT_FILE_KINDS.map((kind) =>
      fileOf(
        kind,
        rows.find((r) => r.kind === kind),
        report,
        contentType === 'video',
      ),
    ),
  };
}

/** A built report (not one whose last build failed): what every file needs. */
function requireBuilt(report: Report) {
  if (report.failed) throw new AppError('invalid_state', { message: 'report.lastFailed' });
  if (report.status !== 'done') throw new AppError('invalid_state', { message: 'report.notDone' });
}

/** POST /api/cabinet/reports/{id}/files/{kind}/ — queued; 409 while one is being made. */
export async function generateReportFile(
  deps: ReportFilesDeps,
  user: User,
  id: string,
  kind: ReportFileKind,
  input: z.infer<typeof generateReportFileInput>,
): Promise<ReportFile> {
  const report = await reportOf(deps, user, id);
  requireBuilt(report);
  const video = (await contentTypeOf(deps, report)) === 'video';
  if (kind === 'video' && !video) throw new AppError('invalid_state', { message: 'report.videoOnly' });
  const attempt = await deps.reportFiles.startGeneration(id, kind, {
    generation: report.generation,
    language: input.language,
    userId: user.id,
  });
  if (attempt === null) throw new AppError('conflict', { message: 'report.fileInProgress' });
  try {
    await deps.queue.send(makeReportFileJob.name, { report_id: id, kind, attempt, theme: input.theme });
  } catch (err) {
    deps.log.error({ err, report: id, kind }, 'report file could not be queued');
    await deps.reportFiles.fail(id, kind, attempt, 'report.fileFailed');
  }
  return fileOf(kind, await deps.reportFiles.get(id, kind), report, video);
}

/** GET /api/cabinet/reports/{id}/files/{kind}/download/ — the stored file as an attachment. */
export async function downloadReportFile(
  deps: ReportFilesDeps,
  user: User,
  id: string,
  kind: ReportFileKind,
): Promise<StoredFile> {
  await reportOf(deps, user, id);
  const row = await deps.reportFiles.get(id, kind);
  if (row?.status !== 'done' || !row.storage_key) throw new AppError('not_found', { message: 'report.noFile' });
  return storedFile(
    row.storage_key,
    Number(row.size ?? 0),
    row.mime ?? 'application/octet-stream',
    row.filename ?? `${kind}.${MADE_FILE_TYPES[kind].extension}`,
  );
}

/** DELETE /api/cabinet/reports/{id}/files/{kind}/ — forgets the file (not while one is being made). */
export async function removeReportFile(deps: ReportFilesDeps, user: User, id: string, kind: ReportFileKind) {
  await reportOf(deps, user, id);
  const row = await deps.reportFiles.get(id, kind);
  if (!row) throw new AppError('not_found', { message: 'report.noFile' });
  if (isRunning(row)) throw new AppError('conflict', { message: 'report.fileInProgress' });
  await deps.reportFiles.remove(id, kind);
}

/**
 * PUT /api/cabinet/reports/{id}/files/presentation/ — the analyst's own presentation (PDF or PPTX, at most
 * 100 MB) in place of the generated one. The body streams to a temporary file (never held whole in memory),
 * is checked by decoding, then stored; a job still making a presentation can no longer write.
 */
export async function attachPresentation(
  deps: ReportFilesDeps,
  user: User,
  id: string,
  upload: { filename: string; body: Readable; declaredSize: number | undefined },
): Promise<ReportFile> {
  const report = await reportOf(deps, user, id);
  requireBuilt(report);
  if (upload.declaredSize !== undefined && upload.declaredSize > PRESENTATION_UPLOAD_MAX) {
    upload.body.resume();
    throw new AppError('payload_too_large', { message: 'media.tooLarge' });
  }
  const dir = await mkdtemp(join(tmpdir(), 'emolens-presentation-'));
  try {
    const file = join(dir, 'upload');
    let received = 0;
    let tooLarge = false;
    try {
      await pipeline(
        upload.body,
        // Past the limit nothing more is written, but the body is read to its end so the answer reaches the client.
        async function* limit(source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            received += chunk.length;
            if (received > PRESENTATION_UPLOAD_MAX) tooLarge = true;
            if (!tooLarge) yield chunk;
          }
        },
        createWriteStream(file),
      );
    } catch {
      throw new AppError('bad_request', { message: 'report.uploadFailed' });
    }
    if (tooLarge) throw new AppError('payload_too_large', { message: 'media.tooLarge' });
    const format = received > 0 ? await presentationFormat(file) : undefined;
    if (!format) throw new AppError('unsupported_media_type', { message: 'media.invalidFormat' });
    const base = upload.filename.replace(/\.(pdf|pptx)$/i, '');
    const key = `reports/${id}/presentation-${randomUUID()}.${format}`;
    const size = (await stat(file)).size;
    await deps.storage.putFile(key, file, PRESENTATION_UPLOAD_TYPES[format]);
    await deps.reportFiles.attach(id, {
      storage_key: key,
      filename: `${base}.${format}`,
      mime: PRESENTATION_UPLOAD_TYPES[format],
      size,
      generation: report.generation,
      language: 'en',
      userId: user.id,
    });
    return fileOf(
      'presentation',
      await deps.reportFiles.get(id, 'presentation'),
      report,
      (await contentTypeOf(deps, report)) === 'video',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
