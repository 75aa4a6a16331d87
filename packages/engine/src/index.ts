// The engine's Node entry: recording analysis for the worker and the CLI. The browser's live face
// check is `@emolens/engine/browser`.
export * from './errors.ts';
export * from './face.ts';
export * from './frames-codec.ts';
export * from './gaze.ts';
export * from './metrics.ts';
export * from './node/analyze.ts';
export * from './node/ffmpeg.ts';
export * from './node/human.ts';
export * from './node/pool.ts';
export * from './node/recording.ts';
export * from './node/session.ts';
export * from './session-timeline.ts';
export * from './session-types.ts';
export * from './tracks.ts';
export * from './types.ts';
export * from './version.ts';
