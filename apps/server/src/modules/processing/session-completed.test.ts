import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, createTestAppWithFiles, loggedIn, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { completeRespondent, launchedLink } from '../../test/respondent.ts';
import { processRecordingJob } from './jobs/process-recording.job.ts';
import { processCompletedSession } from './jobs/subscribers.ts';

let t: TestApp & { dir: string };
let alice: Client;
beforeAll(async () => {
  t = await createTestAppWithFiles('session-completed-test');
  // The queue is sent to but not worked: the test runs what is queued.
  await t.app.ctx.queue.start({ work: false });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.reset();
  ({ alice } = await loggedIn(t.app, 'alice'));
});

const queued = async (name: string) =>
  (
    await sql<{
      data: Record<string, unknown>;
    }>`select data from pgboss.job where name = ${name} and state = 'created'`.execute(t.app.ctx.database.db)
  ).rows.map((r) => r.data);

describe(`a completed session goes to processing through session.completed, ${TEST_BACKEND}`, () => {
  it('completion publishes the event; its subscriber queues a job for each of the session’s processes', async () => {
    const { token, researchIds } = await launchedLink(t.app, alice);
    const { client } = await completeRespondent(t.app, token);
    // Respondents know nothing of processing: the event alone is queued.
    expect(await queued(processCompletedSession.name)).toEqual([{ session_id: client.sessionId }]);
    expect(await queued(processRecordingJob.name)).toEqual([]);

    expect(await t.app.ctx.queue.runQueued([processCompletedSession.name])).toBe(1);
    const processes = await t.app.ctx.database.db
      .selectFrom('video_processes')
      .select(['id', 'campaign_id', 'generation', 'queued_generation'])
      .where('session_id', '=', client.sessionId)
      .execute();
    // Each process is marked as sent at its generation.
    expect(processes.map((p) => p.campaign_id).sort()).toEqual([...researchIds].sort());
    expect(processes.every((p) => p.queued_generation === p.generation)).toBe(true);
    expect((await queued(processRecordingJob.name)).map((d) => d.process_id).sort()).toEqual(
      processes.map((p) => p.id).sort(),
    );

    // Delivered again (a retry): nothing is queued twice.
    await t.app.ctx.queue.publish('session.completed', { session_id: client.sessionId as string });
    await t.app.ctx.queue.runQueued([processCompletedSession.name]);
    expect(await queued(processRecordingJob.name)).toHaveLength(processes.length);
  });
});
