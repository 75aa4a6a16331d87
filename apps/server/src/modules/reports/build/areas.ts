import type { Fixation } from './gaze.ts';

/**
 * Areas of interest (issue 13, item 3; design section 8): what respondents' fixations did in each area, pure
 * functions over fixations in content coordinates (moved out of gaze.ts, whose fixation filter is edited apart).
 */

/** A rectangle on the content, in its pixels; on a video, optionally within a time window (s from the onset). */
export interface AreaOfInterest {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  from?: number | null;
  to?: number | null;
}

export interface AreaMetrics {
  id: string;
  /** Respondents given, and how many had at least one fixation in the area; their share. */
  respondents: number;
  looked: number;
  lookedShare: number;
  /** Of those who looked: mean seconds from the onset to the first fixation in the area. */
  timeToFirstFixation: number | null;
  /** Mean over all respondents: seconds of fixation in the area, and its share of their fixation time. */
  dwellTime: number;
  dwellShare: number;
  /** Mean over those who looked: visits after the first (a visit is a run of consecutive fixations in it). */
  revisits: number | null;
  /** Mean over all respondents: fixations in the area. */
  fixationCount: number;
}

const inside = (a: AreaOfInterest, f: Fixation) =>
  f.x >= a.x && f.x <= a.x + a.width && f.y >= a.y && f.y <= a.y + a.height;

/**
 * The fixations within an area's time window, cut to it and timed from its start (a window-less area: as they
 * are). A fixation that straddles an end counts for its part inside.
 */
function inWindow(area: AreaOfInterest, fixes: readonly Fixation[]): Fixation[] {
  const from = area.from ?? null;
  const to = area.to ?? null;
  if (from === null && to === null) return fixes as Fixation[];
  const start = from ?? 0;
  const end = to ?? Number.POSITIVE_INFINITY;
  return fixes
    .filter((f) => f.end > start && f.start < end)
    .map((f) => ({ ...f, start: Math.max(f.start, start) - start, end: Math.min(f.end, end) - start }));
}

/**
 * Per area, over respondents' fixations (each respondent's in time order, times from the onset). An area with a
 * time window counts only the fixation time inside it, and times its first fixation from the window's start.
 */
export function areaMetrics(
  areas: readonly AreaOfInterest[],
  respondents: readonly (readonly Fixation[])[],
): AreaMetrics[] {
  const n = respondents.length;
  return areas.map((area) => {
    let looked = 0;
    let firstSum = 0;
    let dwellSum = 0;
    let shareSum = 0;
    let revisitSum = 0;
    let countSum = 0;
    for (const all of respondents) {
      const fixes = inWindow(area, all);
      const total = fixes.reduce((s, f) => s + (f.end - f.start), 0);
      let dwell = 0;
      let visits = 0;
      let wasInside = false;
      let first: number | null = null;
      for (const f of fixes) {
        const isInside = inside(area, f);
        if (isInside) {
          dwell += f.end - f.start;
          countSum += 1;
          first ??= f.start;
          if (!wasInside) visits += 1;
        }
        wasInside = isInside;
      }
      dwellSum += dwell;
      shareSum += total > 0 ? dwell / total : 0;
      if (first !== null) {
        looked += 1;
        firstSum += first;
        revisitSum += visits - 1;
      }
    }
    return {
      id: area.id,
      respondents: n,
      looked,
      lookedShare: n ? looked / n : 0,
      timeToFirstFixation: looked ? firstSum / looked : null,
      dwellTime: n ? dwellSum / n : 0,
      dwellShare: n ? shareSum / n : 0,
      revisits: looked ? revisitSum / looked : null,
      fixationCount: n ? countSum / n : 0,
    };
  });
}
