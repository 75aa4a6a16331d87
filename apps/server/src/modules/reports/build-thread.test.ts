import { createReportInput, reportSnapshotSchema } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { buildInThread, type ThreadInput, type ThreadSession } from './build-thread.ts';

/** The build's worker thread: its failures come back as errors, and the thread is usable afterwards. */
describe('the report build in a worker thread', () => {
  const defaults = createReportInput.parse({ name: 'Thread' });
  const input = (sessions: ThreadSession[]): ThreadInput => ({
    type: 'shift',
    step: 1,
    filters: defaults.filters,
    fixations: defaults.fixations,
    timeline: 'video',
    items: [{ index: 0, label: 'Spot', media_id: null, width: null, height: null, seconds: 3, areas: [] }],
    sessions,
    additions: {
      tasks: [],
      researches: [{ id: '12345678-aaaa-4bbb-8ccc-000000000001', title: 'Spot', respondents: 0 }],
      benchmark: null,
    },
  });
  const session: Omit<ThreadSession, 'digest'> = {
    session_id: '12345678-aaaa-4bbb-8ccc-000000000000',
    campaign_id: '12345678-aaaa-4bbb-8ccc-000000000001',
    process_id: '12345678-aaaa-4bbb-8ccc-000000000002',
    participant_id: null,
    status: 'completed',
    sex: null,
    age: null,
    started_at: new Date('2026-01-01T10:00:00Z'),
    engine_version: 'test',
    usable: true,
    excluded_reason: null,
    bad_frame_share: 0,
    calibration_accuracy_px: null,
    calibration_accuracy_percent: null,
    mean_engagement: null,
    summary: { windowMs: { start: 0, end: 3000 }, baseline: null },
    scale: null,
    segment: null,
  };

  it('answers a digest it cannot read with the reason, then builds the next report', async () => {
    const unknown = new Uint8Array(new Float32Array([9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).buffer);
    await expect(buildInThread(input([{ ...session, digest: unknown }]))).rejects.toThrow(
      /unknown report digest version 9/,
    );
    const progress: number[] = [];
    const built = await buildInThread(input([]), (fraction) => {
      progress.push(fraction);
    });
    expect(built).toMatchObject({ respondents: 0, metrics: null });
    // The snapshot comes back as its JSON text, with what the job added.
    const snapshot = reportSnapshotSchema.parse(JSON.parse(built.text));
    expect(snapshot).toMatchObject({ respondents: 0, timeline: 'video', researches: [{ title: 'Spot' }] });
    // The content's 3 s are points even with nobody behind them.
    expect(snapshot.items[0]?.curves.engagement.n).toEqual([0, 0, 0]);
    expect(progress).toEqual([1]);
  });

  it("hands a digest's own buffer to the thread, and clones one that is a view into a larger buffer", async () => {
    // A current digest (version 2) with no resting frames, buckets or samples.
    const empty = () => Float32Array.from([2, 0, ...Array.from({ length: 7 }, () => Number.NaN), 0, 0]);
    const own = new Uint8Array(empty().buffer);
    const shared = new Uint8Array(64);
    const view = new Uint8Array(shared.buffer, 16, 44);
    view.set(new Uint8Array(empty().buffer));
    const sessions = [
      { ...session, digest: own },
      { ...session, session_id: '12345678-aaaa-4bbb-8ccc-000000000003', digest: view },
    ];
    const built = await buildInThread(input(sessions));
    expect(built.respondents).toBe(2);
    // Handed over: this side's buffer is detached; the view's is intact.
    expect(own.byteLength).toBe(0);
    expect(view.byteLength).toBe(44);
    expect(Array.from(new Float32Array(shared.buffer, 16, 1))).toEqual([2]);
  });
});
