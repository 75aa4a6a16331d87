import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, databaseTarget } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { chunksOf, photoClip } from '../../test/clips.ts';
import { loggedIn } from '../../test/harness.ts';
import {
  type EmolensProcess,
  freshPostgres,
  installationEnv,
  logged,
  startEmolens,
  stopEmolens,
  waitFor,
} from '../../test/installation.ts';
import { launchedLink } from '../../test/respondent.ts';
import {
  insertEventLog,
  insertRecording,
  insertRespondentSession,
  insertVideoProcess,
} from '../../test/respondent-rows.ts';
import { queueWaiting } from './processing.service.ts';

/**
 * Design section 7: a worker killed in the middle of a job (kill -9) loses no job and leaves no
 * half-written result: the job is retried by another worker and its result appears once. The workers
 * are real processes (`emolens serve --all`, which runs jobs on either database) on the test backend:
 * a PostgreSQL database of TEST_DATABASE_URL, or the embedded database in a data directory.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function target(): Promise<string | undefined> {
  if (!TEST_DATABASE_URL) return undefined;
  const database = await freshPostgres(TEST_DATABASE_URL, 'emolens_killed');
  cleanups.push(database.drop);
  return database.url;
}

/** A worker process (`serve --all`, which runs jobs on either database), killed when the test ends. */
function startWorker(env: Record<string, string>): EmolensProcess {
  const worker = startEmolens('worker', ['serve', '--all'], env);
  cleanups.push(() => stopEmolens(worker, 'SIGKILL'));
  return worker;
}

describe('a worker killed mid-job', () => {
  it('loses no job: another worker retries it and the result is written once', { timeout: 300_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'emolens-killed-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const env = installationEnv(dataDir, await target(), { PORT: '0' });

    // A collected recording of 20 s with its job queued, written by this process, which then lets go of
    // the database (the embedded one has a single owner).
    const config = loadConfig(env);
    const database = await openDatabase(databaseTarget(config));
    await migrateToLatest(database.db);
    const app = await buildApp(config, { database });
    const { alice } = await loggedIn(app, 'alice');
    const link = await launchedLink(app, alice);
    const campaignId = link.campaignIds[0] as string;
    const sessionId = await insertRespondentSession(app, {
      linkId: link.linkId,
      status: 'completed',
      outcome: 'complete',
      quotaState: 'pending',
    });
    await insertRecording(app, sessionId, 0, chunksOf(photoClip('astronaut', 20, 320)));
    await insertEventLog(app, sessionId, [
      { type: 'screen', t: 0, width: 1280, height: 800, device_pixel_ratio: 1 },
      { type: 'research_start', t: 0, campaign_id: campaignId, index: 0 },
      { type: 'research_end', t: 19_500, campaign_id: campaignId },
    ]);
    const processId = await insertVideoProcess(app, { sessionId, campaignId, status: 'collected' });
    await app.ctx.queue.start({ work: false });
    expect(await queueWaiting(app.ctx.deps)).toBe(1);
    await app.close();
    await database.close();

    // The first worker takes the job and is killed while its engine is analysing.
    const first = startWorker(env);
    await waitFor('the first worker to start the job', () => logged(first, 'video process started') > 0, 120);
    await new Promise((r) => setTimeout(r, 3000));
    const engineChildren = execFileSync('pgrep', ['-P', String(first.child.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
    await stopEmolens(first, 'SIGKILL');
    expect(logged(first, 'video processed')).toBe(0);

    // Its engine process does not outlive it.
    await waitFor(
      'the killed worker’s engine process to exit',
      () =>
        engineChildren.every((pid) => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        }),
      10,
    );

    // A second worker finds the job whose worker stopped beating and runs it to the end.
    const second = startWorker(env);
    await waitFor('the second worker to finish the job', () => logged(second, 'video processed') > 0, 180);
    await stopEmolens(second);

    const check = await openDatabase(databaseTarget(config));
    cleanups.push(() => check.close());
    const process_ = await check.db
      .selectFrom('video_processes')
      .selectAll()
      .where('id', '=', processId)
      .executeTakeFirstOrThrow();
    expect(process_).toMatchObject({ status: 'done', progress: 100, generation: 0 });
    expect(process_.attempts).toBe(2);
    const results = await check.db
      .selectFrom('process_results')
      .selectAll()
      .where('process_id', '=', processId)
      .execute();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ face_found: true, usable: true });
    expect(process_.result_id).toBe(results[0]?.id);
  });
});
