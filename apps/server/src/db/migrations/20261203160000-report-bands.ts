import { metricRange, REPORT_METRICS, type ReportType } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import { upgradeStoredCurve } from '../../modules/reports/build/bands.ts';
import { upgradeStoredSnapshots } from '../stored-snapshots.ts';

/**
 * Report intervals kept honest (issue 28, item 2): a curve's 95% band is clamped to its metric's range and its
 * "% of people above" carries a 95% Wilson interval (`share_low`, `share_high`). Snapshots built before are brought
 * up to date here, by the same functions the build uses, so every stored snapshot has the fields the contract
 * requires and the report page, exports and presentation of an old report show what a rebuild would. One report
 * at a time (a snapshot may be large); a snapshot already carrying the interval is left alone.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await upgradeStoredSnapshots(
    db,
    (column) =>
      column === 'snapshot_text'
        ? sql<boolean>`position('"share_low"' in snapshot_text) = 0`
        : sql<boolean>`not coalesce(snapshot #> '{items,0,curves,engagement}' ? 'share_low', true)`,
    (snapshot) => {
      if (!snapshot?.items) return false;
      upgradeSnapshot(snapshot);
      return true;
    },
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the stored JSON as it was written
function upgradeSnapshot(snapshot: any): void {
  const type = snapshot.type as ReportType;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const upgrade = (curves: any) => {
    for (const metric of REPORT_METRICS)
      if (curves?.[metric]) upgradeStoredCurve(curves[metric], metricRange(metric, type));
  };
  for (const item of snapshot.items) {
    upgrade(item.curves);
    if (item.step_curves) upgrade(item.step_curves);
    for (const segment of item.segments ?? []) upgrade(segment.curves);
  }
}

/** The intervals stay: older code reads the snapshot's other fields as before. */
export async function down(): Promise<void> {}
