import {
  DOT_TEST_LIMITS,
  type DotTestCompleteInput,
  type DotTestEventBatchInput,
  type DotTestStartInput,
  type DotTestStartOutput,
  type DotTestState,
} from '@emolens/contracts';
import type { Deps } from '../../context.ts';
import type { DotTestRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken } from '../auth/tokens.ts';
import { sweepDeletedFiles } from '../media/media.service.ts';
import { admitBatch, batchDigest, checkEventTimes, storeChunk } from '../recording/recording-log.ts';
import { analyzeDotTestJob } from './jobs/dot-test-jobs.ts';

export type DotTestDeps = Pick<Deps, 'dotTests' | 'recording' | 'media' | 'storage' | 'queue' | 'log'>;

export function dotTestState(row: DotTestRow): DotTestState {
  return {
    id: row.id,
    status: row.status,
    progress: Math.round(row.progress),
    calibration_seconds: DOT_TEST_LIMITS.calibrationSeconds,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
    error: row.status === 'failed' ? (row.error_code ?? 'internal') : null,
    result: row.status === 'done' ? row.result : null,
  };
}

/** Consent given: a test with a fresh secret (stored hashed), deleted after the retention it names. */
export async function startDotTest(
  deps: DotTestDeps,
  input: DotTestStartInput,
  userAgent: string | undefined,
): Promise<DotTestStartOutput> {
  const secret = randomToken(32);
  const row = await deps.dotTests.insert({
    secret_hash: hashToken(secret),
    status: 'recording',
    language: input.consent.language,
    retention_days: input.consent.retention_days,
    mime_type: input.mime_type,
    screen_width: input.screen.width,
    screen_height: input.screen.height,
    device_pixel_ratio: input.screen.device_pixel_ratio,
    user_agent: userAgent?.slice(0, 500) ?? null,
    expires_at: new Date(Date.now() + input.consent.retention_days * 86_400_000),
  });
  return { secret, test: dotTestState(row) };
}

function chunkKey(id: string, index: number, sha256: string): string {
  return `dot-tests/${id}/${String(index).padStart(3, '0')}-${sha256.slice(0, 16)}.bin`;
}

/** One recorder chunk, by the recording log's rules (`storeChunk`), like a respondent's. */
export async function putDotTestChunk(
  deps: DotTestDeps,
  test: DotTestRow,
  index: number,
  body: Buffer,
  checksum: string | undefined,
): Promise<{ index: number; stored: boolean }> {
  const { stored } = await storeChunk(
    deps.storage,
    {
      slot: async () => {
        const chunks = await deps.recording.chunks('dotTest', test.id);
        return { mimeType: test.mime_type, count: chunks.length, at: chunks.find((c) => c.index === index) };
      },
      recording: test.status === 'recording',
      ended: 'respondent.dotTestSent',
      key: (sha256) => chunkKey(test.id, index, sha256),
      insert: (sha256, key) =>
        deps.recording.insertChunk('dotTest', { id: test.id, index, size: body.length, sha256, storage_key: key }),
    },
    index,
    body,
    checksum,
    DOT_TEST_LIMITS.chunkBytes,
  );
  return { index, stored };
}

/**
 * One batch of the event log, by the recording log's rules: idempotent by its number; times never go
 * backwards and stay within the test's own clock (since it started) plus the slack.
 */
export async function postDotTestEvents(
  deps: DotTestDeps,
  test: DotTestRow,
  input: DotTestEventBatchInput,
): Promise<{ seq: number; stored: boolean; next_event_seq: number }> {
  const digest = batchDigest(input.events);
  return deps.recording.withEventLog<'dotTest', { seq: number; stored: boolean; next_event_seq: number }>(
    'dotTest',
    test.id,
    input.seq,
    ({ row: current, clockMs, next, previous, atSeq }) => {
      const slot = { next, atSeq, recording: current.status === 'recording', ended: 'respondent.dotTestSent' } as const;
      if (admitBatch(input.seq, digest, slot) === 'repeat') {
        return { result: { seq: input.seq, stored: false, next_event_seq: next } };
      }
      const last = checkEventTimes(input.events, previous?.last_t ?? 0, clockMs, DOT_TEST_LIMITS.clockSlackMs);
      return {
        result: { seq: input.seq, stored: true, next_event_seq: next + 1 },
        write: { events: [...input.events], last_t: last, digest },
      };
    },
  );
}

/** Queues the analysis; without a started queue the clean-up job sends it later. */
export async function queueDotTest(deps: Pick<Deps, 'queue' | 'log'>, id: string): Promise<void> {
  if (!deps.queue.started) return;
  try {
    await deps.queue.send(analyzeDotTestJob.name, { dot_test_id: id }, { singletonKey: id });
  } catch (err) {
    deps.log.warn({ err, dotTest: id }, 'dot test analysis not queued; the clean-up job will');
  }
}

/**
 * Everything is sent: the counts the browser names must be what the server holds (no chunk or batch
 * lost on the way), and the log must hold a whole calibration and validation. A repeat after the
 * test moved on answers its state.
 */
export async function completeDotTest(
  deps: DotTestDeps,
  test: DotTestRow,
  input: DotTestCompleteInput,
): Promise<DotTestState> {
  if (test.status !== 'recording') return dotTestState(test);
  const chunks = await deps.recording.chunks('dotTest', test.id);
  const batches = await deps.recording.nextEventSeq('dotTest', test.id);
  if (chunks.length !== input.chunks || batches !== input.event_batches) {
    throw new AppError('invalid_state', { message: 'respondent.recordingIncomplete' });
  }
  const types = new Set((await deps.recording.events('dotTest', test.id)).map((e) => (e as { type: string }).type));
  if (!types.has('calibration_start') || !types.has('calibration_end') || !types.has('validation_end')) {
    throw new AppError('invalid_state', { message: 'respondent.dotTestCalibrationIncomplete' });
  }
  await deps.dotTests.markQueued(test.id);
  await queueDotTest(deps, test.id);
  const current = await deps.dotTests.findById(test.id);
  if (!current) throw new AppError('not_found', { message: 'respondent.dotTestNotFound' });
  return dotTestState(current);
}

/** The person deletes their check now (the retry button does): nothing of it is kept. */
export async function deleteDotTest(deps: DotTestDeps, test: DotTestRow): Promise<void> {
  await deps.dotTests.delete(test.id);
  await sweepDeletedFiles(deps);
}
