/**
 * A phantom recording through the engine exactly as the worker sends a respondent's: one `SessionTask` (the
 * recording's file on the session clock, the event log, the research) run in the engine pool's child process, and
 * the result's per-frame table read back as plain rows.
 */
import {
  decodeFramesTable,
  type EnginePool,
  EXPRESSIONS,
  type Expression,
  type FRAME_FLAGS,
  frameFlagNames,
  type SessionResult,
  type SessionTask,
} from '@emolens/engine';
import type { PlannedSession } from './session-plan.ts';

/** One analysed frame, as the validation reads it (NaN where the engine had nothing). */
export interface MeasuredFrame {
  /** Ms on the session clock. */
  t: number;
  faceCount: number;
  flags: (keyof typeof FRAME_FLAGS)[];
  gazeX: number;
  gazeY: number;
  yaw: number;
  pitch: number;
  roll: number;
  boxWidth: number;
  expressions: Record<Expression, number>;
  /** The engine's smile index (NaN outside the research window and where it had none). */
  smile: number;
}

/** One gaze sample as the validation scores it: ms on the session clock, screen px (NaN without gaze). */
export type MeasuredGaze = Pick<MeasuredFrame, 't' | 'gazeX' | 'gazeY'>;

export interface EngineRun {
  result: SessionResult;
  frames: MeasuredFrame[];
  /** `measuredGaze`: every gaze sample the reports read. */
  gaze: MeasuredGaze[];
}

/** The task the worker would make for this phantom (a contentless research, so gaze stays in screen pixels). */
export function phantomTask(file: string, plan: PlannedSession, fps = 10): SessionTask {
  return {
    sources: [{ file, offsetMs: 0 }],
    events: plan.events,
    research: {
      researchId: plan.research.id,
      kind: 'contentless',
      items: [],
      durationSeconds: (plan.research.end - plan.research.start) / 1000,
    },
    fps,
    gazeRequired: plan.calibration.end > plan.calibration.start,
  };
}

export function measuredFrames(result: Pick<SessionResult, 'frames'>): MeasuredFrame[] {
  const table = decodeFramesTable(result.frames);
  const c = table.columns;
  const frames: MeasuredFrame[] = [];
  for (let i = 0; i < table.rows; i++) {
    frames.push({
      t: (c.time[i] as number) * 1000,
      faceCount: c.face_count[i] as number,
      flags: frameFlagNames(c.flags[i] as number),
      gazeX: c.gaze_x[i] as number,
      gazeY: c.gaze_y[i] as number,
      yaw: c.yaw[i] as number,
      pitch: c.pitch[i] as number,
      roll: c.roll[i] as number,
      boxWidth: c.box_w[i] as number,
      expressions: Object.fromEntries(EXPRESSIONS.map((e) => [e, c[e][i] as number])) as Record<Expression, number>,
      smile: c.smile[i] as number,
    });
  }
  return frames;
}

/**
 * The gaze samples the reports read (processing/digest.ts): the gaze track, every analysed frame's gaze at the
 * recording's rate up to 30 fps (decision 049), or the frame table's for a result without one.
 */
export function measuredGaze(result: Pick<SessionResult, 'frames'>): MeasuredGaze[] {
  const table = decodeFramesTable(result.frames);
  const g = table.gaze?.columns ?? table.columns;
  const rows = table.gaze?.rows ?? table.rows;
  return Array.from({ length: rows }, (_, i) => ({
    t: (g.time[i] as number) * 1000,
    gazeX: g.gaze_x[i] as number,
    gazeY: g.gaze_y[i] as number,
  }));
}

/** One task in the pool's child (the worker's own path), its frames read back and the child's CPU for it. */
export async function runEngine(pool: EnginePool, task: SessionTask): Promise<EngineRun> {
  const result = await pool.run(task);
  return { result, frames: measuredFrames(result), gaze: measuredGaze(result) };
}
