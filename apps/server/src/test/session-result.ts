import {
  ACTION_UNITS,
  type ExclusionReason,
  type PerSecondSeries,
  type SessionDrift,
  type SessionResult,
} from '@emolens/engine';

/**
 * Engine results written by hand, as the worker hands them to the processing repository (the shapes of
 * `packages/engine/src/session-types.ts`): input data for tests of what the server does with a result,
 * without running the engine.
 */

const emptySeries = (): PerSecondSeries => ({
  timeline: 'contentless',
  item: [0],
  step: [0],
  second: [0],
  frames: [10],
  goodFrames: [10],
  engagement: [0.5],
  valence: [0.1],
  attention: [1],
  expressions: {
    neutral: [0.5],
    happy: [0.3],
    surprise: [0.1],
    sad: [0.05],
    angry: [0.05],
    disgust: [0],
    fear: [0],
  },
  gazeX: [null],
  gazeY: [null],
  actionUnits: Object.fromEntries(ACTION_UNITS.map((u) => [u, [0.02]])) as PerSecondSeries['actionUnits'],
  actionUnitChanges: Object.fromEntries(ACTION_UNITS.map((u) => [u, [0]])) as PerSecondSeries['actionUnitChanges'],
  smile: [0.15],
  headMotion: [3.5],
  blinks: [0],
  distracted: [0],
});

/** An engine result as the worker gets it back from the pool: usable unless `excluded` says why not. */
export function sessionResult(
  options: {
    excluded?: ExclusionReason;
    badFrameShare?: number;
    engagement?: number | null;
    engineVersion?: string;
    accuracyPx?: number;
    /** The distance estimated from the iris (decision 043), cm; none by default. */
    distanceCm?: number;
    /** What the drift checkpoints measured (decision 053); none by default. */
    drift?: SessionDrift;
  } = {},
): SessionResult {
  const frames = 120;
  const share = options.badFrameShare ?? (options.excluded === 'bad_frames' ? 0.4 : 0.05);
  return {
    engineVersion: options.engineVersion ?? 'test-1',
    sampling: { fps: 10, width: 640, height: 480 },
    recordingSeconds: 12,
    frames: new Uint8Array([31, 139, 8, 0, 1, 2, 3]),
    frameCount: frames,
    summary: {
      frames,
      badFrames: Math.round(frames * share),
      badFrameShare: share,
      faceFound: options.excluded !== 'no_face',
      usable: !options.excluded,
      excludedReason: options.excluded ?? null,
      calibration: {
        status: options.accuracyPx === undefined ? 'not_run' : 'calibrated',
        accuracyPx: options.accuracyPx ?? null,
        accuracyPercent: options.accuracyPx === undefined ? null : options.accuracyPx / 22,
        reason: null,
        validation: [],
      },
      distance:
        options.distanceCm === undefined
          ? null
          : {
              cm: options.distanceCm,
              irisPx: (554.256 * 11.7) / (options.distanceCm * 10),
              frames: frames,
              frameWidth: 640,
              fovDegrees: 60,
              irisMm: 11.7,
            },
      drift: options.drift ?? null,
      screen: { width: 1280, height: 800, devicePixelRatio: 2 },
      windowMs: { start: 0, end: 12_000 },
      meanEngagement: options.engagement === undefined ? 0.42 : options.engagement,
      meanValence: 0.1,
      attentionShare: 0.9,
      people: options.excluded === 'no_face' ? 0 : 1,
    },
    series: emptySeries(),
    people: [],
    warnings: [],
  };
}
