/**
 * Where the server's analysis of a recording starts its face engine afresh: it decodes only the session's calibration
 * and research windows, each window a range of its own unless it begins within `RANGE_JOIN_MS` of the one before
 * (`fileRanges`), and the engine forgets the tracked face at each range's start (`analyzeFrames`). A device reading
 * the camera all along (privacy mode) starts afresh at the same moments (`RangeStarts`), so that both track the face
 * from the same frame on.
 */

/** Two windows this close (ms) are decoded as one range: the engine runs on through the gap. */
export const RANGE_JOIN_MS = 500;

/** The event log as it is written: which events start a decode range. */
export class RangeStarts {
  /** Where the latest calibration window ends (its first `validation_end` after `calibration_end`, else that); null while open. */
  private calibrationEnd: number | null = null;
  private calibrating = false;
  private validated = false;

  /**
   * Whether the server starts a range at `event` (time `t`, ms on the session clock): a calibration's start always
   * (nothing of the log's before it is decoded with it); a research's start unless it follows the calibration's end
   * within `RANGE_JOIN_MS` (or the calibration never ended: its window runs to the research).
   */
  starts(event: { type: string; t: number }): boolean {
    switch (event.type) {
      case 'calibration_start':
        this.calibrating = true;
        this.calibrationEnd = null;
        this.validated = false;
        return true;
      case 'calibration_end':
        if (this.calibrating && this.calibrationEnd === null) this.calibrationEnd = event.t;
        return false;
      case 'validation_end':
        if (this.calibrating && this.calibrationEnd !== null && !this.validated) {
          this.calibrationEnd = event.t;
          this.validated = true;
        }
        return false;
      case 'research_start': {
        if (!this.calibrating) return true;
        const end = this.calibrationEnd;
        return end !== null && event.t > end + RANGE_JOIN_MS;
      }
      default:
        return false;
    }
  }
}

/** The times (ms) of a whole event log's range starts, in time order (a log read after the fact). */
export function rangeStartTimes(events: readonly { type: string; t: number }[]): number[] {
  const ranges = new RangeStarts();
  return [...events]
    .sort((a, b) => a.t - b.t)
    .filter((e) => ranges.starts(e))
    .map((e) => e.t);
}
