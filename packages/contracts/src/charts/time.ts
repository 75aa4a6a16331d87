/**
 * The time axis shared by every curve chart (the cabinet's report and interview analysis, the server's slides and
 * video strip): where a point sits, how a time is written, how far apart the labels are.
 */

/** "m:ss" of a second count ("h:mm:ss" from an hour). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** Where a point sits on the time axis: the middle of the `step` seconds it covers. */
export const pointX = (second: number, step: number) => second + step / 2;

/** The time a point covers, "m:ss" (or "m:ss–m:ss" when a point spans several seconds). */
export function pointLabel(second: number, step: number): string {
  return step > 1 ? `${clock(second)}–${clock(second + step)}` : clock(second);
}

/** Seconds between the time axis' labels: a round step giving at most 8 of them. */
export function tickInterval(span: number): number {
  return [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800].find((s) => span / s <= 8) ?? 3600;
}

/** The chart's time span: from 0 to the end of the last point. */
export const timeSpan = (seconds: readonly number[], step: number) => Math.max(step, seconds.length * step);

/** The time axis from 0 to `span`, labelled "m:ss" every round step. */
export function timeAxis(span: number, fontSize: number) {
  return {
    type: 'value' as const,
    min: 0,
    max: span,
    interval: tickInterval(span),
    axisLabel: { formatter: (v: number) => clock(v), hideOverlap: true, fontSize },
    splitLine: { show: false },
  };
}
