/**
 * A phantom taken through a real installation (decision 035): its truth file as the cabinet API takes it
 * (`phantomTruthInput`), and a respondent's stored result scored against it with the validation's own measurements
 * (measure.ts, score.ts), so the research statistic page and `npm run validate` give the same figure for the same
 * recording. The server stores the engine's frames on the session clock; the truth counts from the recording's first
 * frame, so the truth is moved by where the recording starts.
 */
import { PHANTOM_TRUTH_FORMAT, type PhantomRespondentError, type PhantomTruthInput } from '@emolens/contracts';
import type { SessionResult } from '@emolens/engine';
import type { TruthFile } from '../truth.ts';
import { measureBlinks, measureExpressions, measureGaze, measurePose, type TruthFrame } from './measure.ts';
import { measuredFrames, measuredGaze } from './run-engine.ts';
import { median } from './score.ts';

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * The part of a truth file the scoring reads, rounded to what matters (times to a µs, shares to 1e-4, pixels and
 * degrees to 1e-3), in the API's shape.
 */
export function truthForUpload(truth: TruthFile): PhantomTruthInput {
  const { script } = truth;
  return {
    format: PHANTOM_TRUTH_FORMAT,
    phantom: { name: script.name, source: script.source, fps: script.fps, duration_ms: truth.recording.durationMs },
    screen: {
      width: script.screen.widthPx,
      height: script.screen.heightPx,
      width_cm: script.screen.widthCm,
      height_cm: script.screen.heightCm,
      distance_cm: script.screen.distanceCm,
    },
    expressions: script.expressions.map((e) => ({
      kind: e.kind,
      intensity: e.intensity,
      onset_ms: e.onsetMs,
      apex_ms: e.apexMs,
      offset_ms: e.offsetMs,
      end_ms: e.endMs,
    })),
    blinks: script.blinks.map((b) => ({ start_ms: b.startMs, duration_ms: b.durationMs })),
    frames: truth.frames.map((f) => ({
      t_ms: round(f.tMs, 3),
      smile: round(f.expression.smile, 4),
      surprise: round(f.expression.surprise, 4),
      frown: round(f.expression.frown, 4),
      gaze_x: round(f.gaze.x, 3),
      gaze_y: round(f.gaze.y, 3),
      gaze_phase: f.gaze.phase,
      blink: round(f.blink, 4),
      yaw: round(f.head.yaw, 3),
      pitch: round(f.head.pitch, 3),
      roll: round(f.head.roll, 3),
    })),
  };
}

/** What the server keeps of a processed recording. */
export type StoredResult = Pick<SessionResult, 'frames' | 'summary' | 'series'>;

export type SessionErrors = Pick<PhantomRespondentError, 'gaze' | 'expressions' | 'blinks' | 'pose'>;

const finite = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * One respondent's result against its phantom's truth. `recordingStartMs`: where the recording's first frame lies on
 * the session clock (its first segment's offset, as the worker gave it to the engine).
 */
export function scorePhantomSession(
  truth: PhantomTruthInput,
  result: StoredResult,
  recordingStartMs: number,
): SessionErrors {
  const at = recordingStartMs;
  const frames = measuredFrames(result);
  const truthFrames: TruthFrame[] = truth.frames.map((f) => ({
    tMs: f.t_ms + at,
    expression: { smile: f.smile, surprise: f.surprise, frown: f.frown },
    gaze: { x: f.gaze_x, y: f.gaze_y, phase: f.gaze_phase },
    head: { yaw: f.yaw, pitch: f.pitch, roll: f.roll },
  }));
  const script = {
    expressions: truth.expressions.map((e) => ({
      kind: e.kind,
      intensity: e.intensity,
      onsetMs: e.onset_ms + at,
      apexMs: e.apex_ms + at,
      offsetMs: e.offset_ms + at,
      endMs: e.end_ms + at,
    })),
    blinks: truth.blinks.map((b) => ({ startMs: b.start_ms + at, durationMs: b.duration_ms })),
  };
  // The research window the engine analysed (the calibration before it is the resting face, not scored).
  const plan = {
    research: result.summary.windowMs,
    screen: {
      width: truth.screen.width,
      height: truth.screen.height,
      widthCm: truth.screen.width_cm,
      heightCm: truth.screen.height_cm,
      distanceCm: truth.screen.distance_cm,
    },
  };

  const gaze = measureGaze(plan, measuredGaze(result), truthFrames, result).overall;
  const blinks = script.blinks.length ? measureBlinks(script, result) : null;
  const pose = measurePose(frames, truthFrames);
  return {
    gaze: gaze.samples
      ? {
          samples: gaze.samples,
          lost_share: finite(gaze.lostShare),
          median_px: finite(gaze.medianPx),
          p95_px: finite(gaze.p95Px),
          median_percent: finite(gaze.medianPercent),
          p95_percent: finite(gaze.p95Percent),
          median_degrees: finite(gaze.medianDegrees),
          precision_px: finite(gaze.precisionPx),
          precision_percent: finite((gaze.precisionPx / Math.hypot(plan.screen.width, plan.screen.height)) * 100),
          precision_degrees: finite(gaze.precisionDegrees),
        }
      : null,
    expressions: measureExpressions(script, plan, frames, truthFrames).map((e) => ({
      kind: e.kind,
      measured_as: e.measuredAs,
      injected: e.injected,
      hits: e.hits,
      onset_error_ms: finite(median(e.onsetErrorsMs)),
      false_alarms: e.falseAlarms,
      neutral_seconds: e.neutralSeconds,
      correlation: finite(e.correlation),
    })),
    blinks: blinks && {
      injected: blinks.injected,
      measured: blinks.measured,
      matched: blinks.matched,
      recall: finite(blinks.recall),
      precision: finite(blinks.precision),
    },
    pose: (['yaw', 'pitch', 'roll'] as const)
      .filter((axis) => pose[axis].n > 0)
      .map((axis) => ({
        axis,
        frames: pose[axis].n,
        median_degrees: finite(pose[axis].median),
        p95_degrees: finite(pose[axis].p95),
        r: finite(pose[axis].r),
      })),
  };
}
