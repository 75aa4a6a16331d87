import { type Kysely, sql } from 'kysely';
import { upgradeStoredSnapshots } from '../stored-snapshots.ts';

/**
 * Reports gain a smile curve (issue 30; decision 080): the engine's smile index per second, from each result's report
 * digest. A snapshot built before has none and cannot be given one without its build's data, so each of its curve sets
 * (an item's, its task steps', its segments') gets a smile curve with no respondent behind any point (N 0, no mean,
 * band or share): what the build knew of the smile. The contract's curve sets then hold every metric, and a rebuild
 * draws the real curve. One report at a time (a snapshot may be large); a snapshot with a smile curve is left alone.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  // Only snapshots whose first item's curves lack a smile are read (the build writes every curve set alike).
  await upgradeStoredSnapshots(
    db,
    (column) =>
      column === 'snapshot_text'
        ? sql<boolean>`position('"smile":{' in snapshot_text) = 0`
        : sql<boolean>`not coalesce((snapshot #> '{items,0,curves}') ? 'smile', false)`,
    addEmptySmileCurves,
  );
}

/** Whether the snapshot was changed: every curve set without a smile curve gets one with nobody behind it. */
// biome-ignore lint/suspicious/noExplicitAny: the stored JSON as it was written
function addEmptySmileCurves(snapshot: any): boolean {
  if (!Array.isArray(snapshot?.items)) return false;
  let changed = false;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const add = (curves: any) => {
    if (!curves?.engagement || curves.smile) return;
    const points = curves.engagement.n.length;
    const none = () => Array.from({ length: points }, () => null);
    curves.smile = {
      n: Array.from({ length: points }, () => 0),
      mean: none(),
      low: none(),
      high: none(),
      share_above: none(),
      share_low: none(),
      share_high: none(),
    };
    changed = true;
  };
  for (const item of snapshot.items) {
    add(item.curves);
    add(item.step_curves);
    for (const segment of item.segments ?? []) add(segment.curves);
  }
  return changed;
}

/** The smile curves stay: older code reads the snapshot's other metrics as before. */
export async function down(): Promise<void> {}
