import {
  type HeatmapTheme,
  isMessageKey,
  type Language,
  type MessageKey,
  type Playback,
  type ReportItem,
  type ReportRespondent,
} from '@emolens/contracts';

/**
 * The report page's pure parts (issue 13): a segment's name, the heatmap's settings, which heatmap frame a video
 * time shows, and how respondents and their exclusions are listed. The curves chart is built in
 * `@emolens/contracts/charts`, shared with the server's files.
 */

type Segment = ReportItem['segments'][number];

/** A segment's name: sex segments (no labels) by their key's translation, answer options in the language. */
export function segmentName(segment: Segment, language: Language, sexNames: Record<string, string>): string {
  if (!segment.labels) return sexNames[segment.key] ?? segment.key;
  return segment.labels[language] || segment.labels.en || segment.key;
}

/* ---------------------------------------------------------------- heatmap */

export interface HeatmapSettings {
  theme: HeatmapTheme;
  /** 0.1–1 */
  opacity: number;
  /** Extra blur in screen pixels, 0–50. */
  radius: number;
}
export const HEATMAP_DEFAULTS: HeatmapSettings = { theme: 'colour', opacity: 0.7, radius: 0 };
export const HEATMAP_LIMITS = { opacity: { min: 0.1, max: 1 }, radius: { min: 0, max: 50 } } as const;

/** Whether a typed setting is a number within its limits. */
export function withinLimits(value: number | string, limits: { min: number; max: number }): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= limits.min && value <= limits.max;
}

/** The heatmap frame a video at `time` seconds shows: point ⌊time / step⌋, within the frames there are. */
export function frameIndex(time: number, step: number, count: number): number | null {
  if (count <= 0 || step <= 0 || !Number.isFinite(time)) return null;
  // A hair of tolerance: 2.9999999 s of a seek to 3 s is the point of 3 s.
  return Math.min(count - 1, Math.max(0, Math.floor(time / step + 1e-6)));
}

/* ---------------------------------------------------------------- respondents */

/** Respondents as the table lists them: the included first, each group by session start. */
export function sortPeople(people: readonly ReportRespondent[]): ReportRespondent[] {
  return [...people].sort(
    (a, b) => Number(b.included) - Number(a.included) || a.started_at.localeCompare(b.started_at),
  );
}

/** The report's own exclusions (its filters); the rest are the engine's, named by the messages catalogue. */
export const OWN_EXCLUSIONS = ['accuracy', 'happy'] as const;

/** Where an exclusion's text comes from: this page's locale (`excluded.<reason>`) or the messages catalogue. */
export function exclusionSource(
  reason: string,
):
  | { source: 'page'; key: `excluded.${(typeof OWN_EXCLUSIONS)[number]}` }
  | { source: 'messages'; key: MessageKey }
  | { source: 'raw'; text: string } {
  if ((OWN_EXCLUSIONS as readonly string[]).includes(reason)) {
    return { source: 'page', key: `excluded.${reason as (typeof OWN_EXCLUSIONS)[number]}` };
  }
  const key = `processing.excluded.${reason}`;
  return isMessageKey(key) ? { source: 'messages', key } : { source: 'raw', text: reason };
}

/** The first characters of a session id: enough to tell sessions apart in a table. */
export const shortId = (id: string) => id.slice(0, 8);

/** The file name an export falls back to when the server names none. */
export function exportFileName(reportName: string, kind: string, format: 'xlsx' | 'csv'): string {
  const base =
    reportName
      .trim()
      .replace(/\s+/g, '-')
      .replace(/[^\p{L}\p{N}-]/gu, '') || 'report';
  return `${base}-${kind}.${format}`;
}

/* ---------------------------------------------------------------- playback */

/** A gaze sample older than this (s) is not shown: the respondent's gaze was not on the item then. */
const GAZE_HOLD_S = 0.3;

/** The gaze sample at content time `time` (the latest not after it, if recent enough), or null. */
export function gazeAt(gaze: Playback['gaze'], time: number): { x: number; y: number } | null {
  let lo = 0;
  let hi = gaze.t.length - 1;
  if (hi < 0 || time < (gaze.t[0] as number)) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((gaze.t[mid] as number) <= time) lo = mid;
    else hi = mid - 1;
  }
  if (time - (gaze.t[lo] as number) > GAZE_HOLD_S) return null;
  return { x: gaze.x[lo] as number, y: gaze.y[lo] as number };
}

/** The kept segment that holds the moment the respondent's gaze reached the item (the last starting before it). */
export function segmentAt(playback: Playback): Playback['segments'][number] | undefined {
  return playback.segments.filter((s) => s.offset <= playback.onset).at(-1) ?? playback.segments[0];
}
