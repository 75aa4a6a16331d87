import type { CalibrationCheckStatus, ProcessErrorCode, ValidationFailureBehaviour } from '@emolens/contracts';
import type { Generated } from 'kysely';
import type { Timestamp } from './columns.ts';

/** One calibration check of a session (decision 050): attempt 1, and 2 after a failure. */
export interface CalibrationChecksTable {
  session_id: string;
  attempt: number;
  status: CalibrationCheckStatus;
  progress: Generated<number>;
  threshold_percent: number;
  /** What a failure of the second attempt does, fixed when the check is asked for. */
  on_failure: ValidationFailureBehaviour;
  accuracy_percent: number | null;
  error_code: ProcessErrorCode | null;
  /** The attempt's validation_end on the session clock (ms): the engine reads the log up to it. */
  validation_end_ms: number;
  attempts: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
