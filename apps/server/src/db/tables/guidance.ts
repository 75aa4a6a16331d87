import type { GuidanceSummary } from '@emolens/contracts';
import type { ColumnType } from 'kysely';

/** A session's live guidance, counted from its event log at processing (decision 045). */
export interface SessionGuidanceTable {
  session_id: string;
  guided_seconds: number;
  problems: ColumnType<GuidanceSummary['problems'], string, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
