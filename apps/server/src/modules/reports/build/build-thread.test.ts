import { createReportInput, reportSnapshotSchema } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { DIGEST_VERSION } from '../../processing/digest.ts';
import { driftColumns } from '../../processing/drift-columns.ts';
import { buildInThread, type ThreadInput, type ThreadSession } from './build-thread.ts';

/** PostgreSQL's binary COPY of rows (result id as text, digest): what the thread reads the digests from. */
function binaryCopy(rows: [string, Uint8Array][], before = 0): Uint8Array {
  const parts: Uint8Array[] = [
    new Uint8Array(before),
    new Uint8Array([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]),
  ];
  const int = (bytes: number, value: number) => {
    const out = new Uint8Array(bytes);
    if (bytes === 2) new DataView(out.buffer).setInt16(0, value);
    else new DataView(out.buffer).setInt32(0, value);
    return out;
  };
  for (const [id, digest] of rows) {
    const text = new TextEncoder().encode(id);
    parts.push(int(2, 2), int(4, text.length), text, int(4, digest.length), digest);
  }
  parts.push(int(2, -1));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The build's worker thread: its failures come back as errors, and the thread is usable afterwards. */
describe('the report build in a worker thread', () => {
  const defaults = createReportInput.parse({ name: 'Thread' });
  const input = (sessions: ThreadSession[], copy = binaryCopy([])): ThreadInput => ({
    type: 'shift',
    step: 1,
    filters: defaults.filters,
    fixations: defaults.fixations,
    timeline: 'video',
    items: [{ index: 0, label: 'Spot', media_id: null, width: null, height: null, seconds: 3, areas: [] }],
    sessions,
    digests: { copy },
    tasks: { tasks: [], runs: [], media: [] },
    researches: [{ id: '12345678-aaaa-4bbb-8ccc-000000000001', title: 'Spot' }],
    benchmark: null,
  });
  const session: ThreadSession = {
    session_id: '12345678-aaaa-4bbb-8ccc-000000000000',
    result_id: '12345678-aaaa-4bbb-8ccc-00000000000a',
    campaign_id: '12345678-aaaa-4bbb-8ccc-000000000001',
    process_id: '12345678-aaaa-4bbb-8ccc-000000000002',
    participant_id: null,
    status: 'completed',
    sex: null,
    age: null,
    started_at: new Date('2026-01-01T10:00:00Z'),
    calibration_check: 'flagged',
    engine_version: 'test',
    usable: true,
    excluded_reason: null,
    bad_frame_share: 0,
    calibration_accuracy_px: null,
    calibration_accuracy_percent: null,
    calibration_precision_px: null,
    calibration_precision_percent: null,
    ...driftColumns(null),
    distance_cm: null,
    mean_engagement: null,
    summary: { windowMs: { start: 0, end: 3000 }, baseline: null },
    scale: null,
    segment: null,
  };

  it('answers a digest it cannot read with the reason, then builds the next report', async () => {
    const unknown = new Uint8Array(new Float32Array([9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).buffer);
    await expect(buildInThread(input([session], binaryCopy([[session.result_id, unknown]])))).rejects.toThrow(
      /unknown report digest version 9/,
    );
    // A session whose result has no digest in the COPY.
    await expect(buildInThread(input([session]))).rejects.toThrow(/no report digest of result/);
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

  it("hands the COPY's own buffer to the thread, and clones one that is a view into a larger buffer", async () => {
    // A current digest with no resting frames, buckets or samples.
    const empty = new Uint8Array(
      Float32Array.from([DIGEST_VERSION, 0, ...Array.from({ length: 7 }, () => Number.NaN), 0, 0]).buffer,
    );
    const other = {
      ...session,
      session_id: '12345678-aaaa-4bbb-8ccc-000000000003',
      result_id: '12345678-aaaa-4bbb-8ccc-00000000000b',
    };
    const rows: [string, Uint8Array][] = [
      [session.result_id, empty],
      [other.result_id, empty],
    ];
    const own = binaryCopy(rows);
    const built = await buildInThread(input([session, other], own));
    expect(built.respondents).toBe(2);
    // Handed over: this side's buffer is detached.
    expect(own.byteLength).toBe(0);
    // A view into a larger buffer is cloned: it stays intact here.
    const larger = binaryCopy(rows, 16);
    const view = larger.subarray(16);
    expect((await buildInThread(input([session, other], view))).respondents).toBe(2);
    expect(view.byteLength).toBe(larger.byteLength - 16);
    expect(Array.from(view.subarray(0, 5))).toEqual([0x50, 0x47, 0x43, 0x4f, 0x50]);
  });
});
