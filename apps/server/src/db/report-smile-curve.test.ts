import { REPORT_METRICS, reportSnapshotSchema } from '@emolens/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_BACKEND, type TestDatabase } from '../test/harness.ts';
import { up } from './migrations/20261208090000-report-smile-curve.ts';

const curve = (points: number) => ({
  n: Array.from({ length: points }, () => 3),
  mean: Array.from({ length: points }, () => 0.4),
  low: Array.from({ length: points }, () => 0.2),
  high: Array.from({ length: points }, () => 0.6),
  share_above: Array.from({ length: points }, () => 0),
  share_low: Array.from({ length: points }, () => 0),
  share_high: Array.from({ length: points }, () => 0.56),
});
/** A set of curves as a build made them before the smile curve: every other metric. */
const oldCurves = (points: number) =>
  Object.fromEntries(REPORT_METRICS.filter((m) => m !== 'smile').map((m) => [m, curve(points)]));

/**
 * The migration that gives snapshots built before the smile curve an empty one (decision 080), on both columns a
 * snapshot may be stored in: run against a table of the same name in a schema of its own, so the real reports are not
 * touched.
 */
describe(`old snapshots get a smile curve with nobody behind it (migration) on ${TEST_BACKEND}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('every curve set of an old snapshot gets one, N 0 at each of its points; a new snapshot is left as it is', async () => {
    const db = database.db;
    const old = {
      items: [
        {
          curves: oldCurves(3),
          step_curves: oldCurves(2),
          segments: [{ key: 'man', curves: oldCurves(3) }],
        },
        { curves: oldCurves(1), step_curves: null, segments: [] },
      ],
    };
    const current = { items: [{ curves: { ...oldCurves(2), smile: curve(2) }, step_curves: null, segments: [] }] };
    await sql`create schema smile_probe`.execute(db);
    try {
      await sql`create table smile_probe.reports (id int, snapshot jsonb, snapshot_text text)`.execute(db);
      await sql`insert into smile_probe.reports values
        (1, ${JSON.stringify(old)}::jsonb, null),
        (2, null, ${JSON.stringify(old)}),
        (3, null, ${JSON.stringify(current)}),
        (4, null, null)`.execute(db);
      await sql`set search_path to smile_probe`.execute(db);
      await up(db);
      const rows = (
        await sql<{ snapshot: unknown; snapshot_text: string | null }>`
          select snapshot, snapshot_text from reports order by id`.execute(db)
      ).rows;
      const [fromJson, fromText, unchanged, none] = [
        rows[0]?.snapshot,
        JSON.parse(rows[1]?.snapshot_text ?? 'null'),
        JSON.parse(rows[2]?.snapshot_text ?? 'null'),
        rows[3],
      ];
      for (const snapshot of [fromJson, fromText] as (typeof old)[]) {
        const [first, second] = snapshot.items;
        const empty = (points: number) => ({
          n: Array.from({ length: points }, () => 0),
          mean: Array.from({ length: points }, () => null),
          low: Array.from({ length: points }, () => null),
          high: Array.from({ length: points }, () => null),
          share_above: Array.from({ length: points }, () => null),
          share_low: Array.from({ length: points }, () => null),
          share_high: Array.from({ length: points }, () => null),
        });
        expect(first?.curves).toEqual({ ...oldCurves(3), smile: empty(3) });
        expect(first?.step_curves).toEqual({ ...oldCurves(2), smile: empty(2) });
        expect(first?.segments[0]?.curves).toEqual({ ...oldCurves(3), smile: empty(3) });
        expect(second?.curves).toEqual({ ...oldCurves(1), smile: empty(1) });
        expect(second?.step_curves).toBeNull();
        // Each curve set now holds every metric the contract asks for.
        expect(() => reportSnapshotSchema.shape.items.element.shape.curves.parse(first?.step_curves)).not.toThrow();
      }
      expect(unchanged).toEqual(current);
      expect(none).toEqual({ snapshot: null, snapshot_text: null });
    } finally {
      await sql`set search_path to default`.execute(db);
      await sql`drop schema smile_probe cascade`.execute(db);
    }
  });
});
