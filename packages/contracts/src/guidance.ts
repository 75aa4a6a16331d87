import { z } from 'zod';

/**
 * Live guidance (issue 31, item 7; decision 045): what the respondent is told about their face during calibration and
 * content, in the order one is chosen when several hold (the first is what to fix first: no light, no face).
 */
export const GUIDANCE_PROBLEMS = ['too_dark', 'no_face', 'face_cut', 'too_far', 'too_near', 'head_turned'] as const;
export type GuidanceProblem = (typeof GUIDANCE_PROBLEMS)[number];

/** A `guidance` event's state: `off` (guidance stopped), `ok` (no notice), or the problem the notice names. */
export const GUIDANCE_STATES = ['off', 'ok', ...GUIDANCE_PROBLEMS] as const;
export type GuidanceState = (typeof GUIDANCE_STATES)[number];

/** Seconds of the session the guidance ran, and how long its notice named each problem (per process result). */
export const guidanceSummarySchema = z.object({
  guided_seconds: z.number().min(0),
  problems: z.record(z.enum(GUIDANCE_PROBLEMS), z.number().min(0)),
});
export type GuidanceSummary = z.infer<typeof guidanceSummarySchema>;

/** The events the accounting reads (stored events of any type; others are passed over). */
export interface GuidanceEventLike {
  type: string;
  t: number;
  state?: unknown;
}

/**
 * How long the guidance ran and how long each problem was shown, from the session's event log (in its order, on the
 * session clock). A `guidance` event starts a state that lasts until the next `guidance` event; a page that went away
 * without saying so ends it at the next `segment_start` (the page opened again), `camera_lost`, or the log's last
 * event. Null when the log has no guidance at all (face check off, or a session from before it).
 */
export function guidanceSummary(events: readonly GuidanceEventLike[]): GuidanceSummary | null {
  const problems = Object.fromEntries(GUIDANCE_PROBLEMS.map((p) => [p, 0])) as Record<GuidanceProblem, number>;
  let guided = 0;
  let seen = false;
  let open: { state: GuidanceState; since: number } | null = null;
  const close = (t: number) => {
    if (!open) return;
    const ms = Math.max(0, t - open.since);
    if (open.state !== 'off') guided += ms;
    if (open.state !== 'off' && open.state !== 'ok') problems[open.state] += ms;
    open = null;
  };
  let lastT = 0;
  for (const e of events) {
    if (typeof e.t !== 'number' || !Number.isFinite(e.t)) continue;
    lastT = Math.max(lastT, e.t);
    if (e.type === 'guidance' && (GUIDANCE_STATES as readonly unknown[]).includes(e.state)) {
      seen = true;
      close(e.t);
      open = { state: e.state as GuidanceState, since: e.t };
    } else if (e.type === 'segment_start' || e.type === 'camera_lost') {
      close(e.t);
    }
  }
  close(lastT);
  if (!seen) return null;
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  return {
    guided_seconds: seconds(guided),
    problems: Object.fromEntries(GUIDANCE_PROBLEMS.map((p) => [p, seconds(problems[p])])) as Record<
      GuidanceProblem,
      number
    >,
  };
}

/** GET /api/cabinet/reports/{id}/guidance/ — the live guidance of the sessions the report lists (with any). */
export const reportGuidanceOutput = z.object({
  sessions: z.array(guidanceSummarySchema.extend({ session_id: z.uuid() })),
});
export type ReportGuidance = z.infer<typeof reportGuidanceOutput>;
