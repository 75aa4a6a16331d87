import type {
  DataDeletion,
  DataDeletionList,
  DeleteRespondentDataResult,
  deleteRespondentDataInput,
} from '@emolens/contracts';
import { DATA_DELETIONS_PAGE } from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { requireAccess } from '../access/access.ts';
import { sweepDeletedFiles } from '../media/media.service.ts';
import { projectRules } from '../projects/project-rules.ts';
import { verifyCompletionCodes } from '../respondents/completion-code.ts';
import type { DeletionRow } from './retention.repository.ts';

export type RetentionDeps = Pick<
  Deps,
  'access' | 'projects' | 'retention' | 'sessionEnds' | 'media' | 'storage' | 'log'
>;

/** Sessions per batch (one short transaction each) and batches per run of the hourly job. */
export const RETENTION_BATCH = 100;
export const RETENTION_MAX_BATCHES = 20;

export function toDeletion(row: DeletionRow): DataDeletion {
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    reason: row.reason,
    scope: row.scope,
    user: row.public_user_id
      ? { public_user_id: row.public_user_id, name: row.user_name || row.username || row.public_user_id }
      : null,
    identifier_kind: row.identifier_kind,
    identifier: row.identifier,
    session_count: row.session_count,
  };
}

async function checkProject(deps: Pick<Deps, 'access' | 'projects'>, user: User, projectId: string): Promise<void> {
  await requireAccess(deps.access, user, 'project.manage', projectId);
  const project = await deps.projects.find(projectId);
  if (!project) throw new AppError('not_found', { message: 'project.notFound' });
  if (!projectRules.manageData(project.status)) throw new AppError('invalid_state');
}

/**
 * Consent withdrawn (design section 6): deletes every session of the project the identifier names —
 * recording, event log, video processes, results — and records that it happened. The rows go at
 * once; the recording's files leave storage through the storage trash, swept right away (and by the
 * hourly job if storage fails now).
 */
export async function deleteRespondentData(
  deps: RetentionDeps,
  secret: string,
  user: User,
  projectId: string,
  input: z.output<typeof deleteRespondentDataInput>,
): Promise<DeleteRespondentDataResult> {
  await checkProject(deps, user, projectId);
  let by: { kind: 'participant_id' | 'session_id'; value: string };
  if (input.identifier_kind === 'completion_code') {
    // Signed or short (issue 28, item 13): a short code no session holds names nothing to delete.
    const [verified = { valid: false, reason: 'malformed' } as const] = await verifyCompletionCodes(
      secret,
      [input.identifier.trim()],
      deps.sessionEnds.sessionsByCompletionCode,
    );
    if (!verified.valid && verified.reason === 'session_missing') throw nothingFound();
    if (!verified.valid) {
      throw new AppError('validation_failed', {
        message: 'deletion.codeInvalid',
        fields: { identifier: 'deletion.codeInvalid' },
      });
    }
    if (verified.claims.pid !== projectId) throw nothingFound();
    // The code names the session; only its id is recorded, not the code (it carries the participant id).
    by = { kind: 'session_id', value: verified.claims.sid };
  } else {
    by = { kind: input.identifier_kind, value: input.identifier };
  }
  const done = await deps.retention.deleteSessionsBy(projectId, by, {
    userId: user.id,
    identifierKind: input.identifier_kind,
    identifier: by.value,
  });
  if (!done) throw nothingFound();
  deps.log.info({ project: projectId, sessions: done.count, by: input.identifier_kind }, 'respondent data deleted');
  await sweepDeletedFiles(deps);
  const row = await deps.retention.findDeletion(done.deletionId);
  if (!row) throw new AppError('not_found');
  return { deleted_sessions: done.count, deletion: toDeletion(row) };
}

const nothingFound = () =>
  new AppError('not_found', {
    message: 'deletion.nothingFound',
    fields: { identifier: 'deletion.nothingFound' },
  });

export async function listDataDeletions(
  deps: Pick<Deps, 'access' | 'projects' | 'retention'>,
  user: User,
  projectId: string,
): Promise<DataDeletionList> {
  await checkProject(deps, user, projectId);
  const { items, total } = await deps.retention.listDeletions(projectId, DATA_DELETIONS_PAGE);
  return { items: items.map(toDeletion), total };
}

export interface RetentionRun {
  /** Sessions whose recording was deleted (delete after processing). */
  recordings: number;
  /** Sessions deleted whole (delete after N days). */
  sessions: number;
}

/**
 * The hourly retention run: both deletion modes in batches, at most `maxBatches` of each, so one
 * run stays short; what is left waits for the next run. Safe twice at once (rows are taken with
 * SKIP LOCKED) and again (a deleted row is not found twice).
 */
export async function applyRetention(
  deps: Pick<Deps, 'retention' | 'media' | 'storage' | 'log'>,
  options: { batch?: number; maxBatches?: number; signal?: AbortSignal } = {},
): Promise<RetentionRun> {
  const batch = options.batch ?? RETENTION_BATCH;
  const maxBatches = options.maxBatches ?? RETENTION_MAX_BATCHES;
  const run: RetentionRun = { recordings: 0, sessions: 0 };
  for (let i = 0; i < maxBatches && !options.signal?.aborted; i++) {
    const rows = await deps.retention.deleteProcessedRecordings(batch);
    run.recordings += rows.length;
    if (rows.length < batch) break;
  }
  for (let i = 0; i < maxBatches && !options.signal?.aborted; i++) {
    const rows = await deps.retention.deleteExpiredSessions(batch);
    run.sessions += rows.length;
    if (rows.length < batch) break;
  }
  if (run.recordings || run.sessions) await sweepDeletedFiles(deps);
  return run;
}

/**
 * Right after a video process finished: if it was the session's last one and the project deletes
 * recordings after processing, the recording goes now instead of at the next hourly run.
 */
export async function deleteRecordingIfProcessed(
  deps: Pick<Deps, 'retention' | 'media' | 'storage' | 'log'>,
  sessionId: string,
): Promise<boolean> {
  const rows = await deps.retention.deleteProcessedRecordings(1, sessionId);
  if (!rows.length) return false;
  await sweepDeletedFiles(deps);
  return true;
}
