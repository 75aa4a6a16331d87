/**
 * The engine in the respondent's browser: a live check that one face is in front of the camera,
 * looking at it, in enough light. The same rules as the recording analysis (face.ts), on Human's
 * browser build, which bundles TensorFlow.js. Models and wasm binaries come from the app's own origin.
 */
import { type Config, Human } from '@vladmandic/human';
import { type DetectedFace, mainFace, outsideFrame, qualityFlags, toFaceData } from '../face.ts';
import { withEnginePose } from '../head-pose.ts';
import { faceConfig } from '../human-config.ts';
import type { Box, HeadPose, QualityFlag } from '../types.ts';
import {
  type FaceCheckStatus,
  type FaceDistance,
  faceCheckStatus,
  faceDistance,
  RateMeter,
  rgbaBrightness,
} from './status.ts';

export {
  decodeReadings,
  encodeReadings,
  type FrameReadings,
  mergeReadings,
  READINGS_FORMAT_VERSION,
  READINGS_MAX_CHUNK_BYTES,
  READINGS_MAX_FRAMES,
  READINGS_STEPS,
  type ReadingsSampling,
} from '../readings.ts';
export { type FaceCheckStatus, type FaceDistance, faceCheckStatus, faceDistance } from './status.ts';

/**
 * `auto`: WebGL when the browser has a hardware GPU context, else WebAssembly. A software WebGL
 * (SwiftShader, llvmpipe: VMs, blocked drivers, headless Chromium) was measured 30-50 times slower
 * than WebAssembly for these models, so it is never chosen.
 */
export type FaceCheckBackend = 'auto' | 'wasm' | 'webgl';

export interface FaceCheckerOptions {
  /** Where the server serves the engine's assets (apps/server engine-assets routes). */
  assetsBase?: string;
  backend?: FaceCheckBackend;
  /** Faces looked for; two are enough to tell `several_faces`. */
  maxFaces?: number;
  /**
   * The face detector runs at least this often (ms); between its runs the faces are tracked by the
   * mesh, which is what makes the check fast. A newly appearing face is noticed within this time.
   */
  detectorInterval?: number;
}

export interface FaceCheckResult {
  status: FaceCheckStatus;
  /** Every rule the frame breaks; `status` is the one to tell first. */
  flags: QualityFlag[];
  /** Faces found, at most `maxFaces`. */
  faceCount: number;
  /** Mean luma of the frame, 0..1 (too dark below DARK_LUMA). */
  brightness: number;
  /** Head pose of the main face in degrees, null without a face. */
  pose: HeadPose | null;
  /** The main face in video pixels, null without a face. */
  box: Box | null;
  frame: { width: number; height: number };
  /** The main face's distance by its size in the frame (`faceDistance`), null without a face. */
  distance: FaceDistance | null;
  /** A landmark of the main face lies outside the frame (the analysis's `face_cut` rule). */
  faceCut: boolean;
  /** Checks per second over the last two seconds (0 until two checks are done). */
  fps: number;
  /** Milliseconds this check took. */
  duration: number;
}

export interface FaceChecker {
  /** The TensorFlow.js backend in use: `wasm` or `humangl` (Human's WebGL). */
  readonly backend: string;
  /** Checks the video's current frame. The video must be playing (readyState ≥ HAVE_CURRENT_DATA). */
  check(video: HTMLVideoElement): Promise<FaceCheckResult>;
  /** Checks every new frame of the video, one check at a time, until `stop()`. */
  start(video: HTMLVideoElement, onResult: (result: FaceCheckResult) => void, onError?: (error: unknown) => void): void;
  stop(): void;
}

/** Width of the downscaled copy of the frame the brightness is measured on. */
const LUMA_WIDTH = 48;
/** The loop's fallback when no video frame callback arrives (a video not rendered on the page). */
const WATCHDOG_MS = 200;

function hardwareWebgl(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return !/swiftshader|llvmpipe|softpipe|software|basic render/i.test(renderer);
  } catch {
    return false;
  }
}

function humanConfig(
  o: Required<FaceCheckerOptions>,
  versions: { human: string; wasm: string },
  backend: 'wasm' | 'humangl',
) {
  const base = o.assetsBase.replace(/\/+$/, '');
  return {
    backend,
    // Human's defaults point at a CDN: both paths are set, and the package versions are part of
    // the address so the server can let browsers cache the files for good.
    modelBasePath: `${base}/models/${versions.human}/`,
    wasmPath: `${base}/wasm/${versions.wasm}/`,
    // The HTTP cache keeps the files; Human's IndexedDB copy would outlive an upgrade of the models.
    cacheModels: false,
    ...faceConfig({
      maxFaces: o.maxFaces,
      detectorSkip: { skipFrames: 30, skipTime: o.detectorInterval },
      // Lets the detector be skipped while the picture stays alike (Human's frame comparison).
      cacheSensitivity: 0.7,
      mesh: { enabled: true },
      iris: { enabled: true },
      emotion: { enabled: false },
    }),
  } satisfies Partial<Config>;
}

export async function createFaceChecker(options: FaceCheckerOptions = {}): Promise<FaceChecker> {
  const o: Required<FaceCheckerOptions> = {
    assetsBase: '/engine-assets',
    backend: 'auto',
    maxFaces: 2,
    detectorInterval: 500,
    ...options,
  };
  // The versions bundled into this build name the asset addresses; Human reads its model path when
  // constructed, so a first instance only tells them.
  const probe = new Human({ backend: 'wasm', warmup: 'none' });
  const versions = { human: probe.version, wasm: String(probe.tf.version['tfjs-backend-wasm']) };
  const wanted: 'wasm' | 'humangl' =
    o.backend === 'webgl' || (o.backend === 'auto' && hardwareWebgl()) ? 'humangl' : 'wasm';
  const human = new Human(humanConfig(o, versions, wanted));
  await human.init();
  if (human.tf.getBackend() !== wanted && wanted !== 'wasm') {
    human.config.backend = 'wasm';
    await human.init();
  }
  const backend = String(human.tf.getBackend());
  if (backend !== 'wasm' && backend !== 'humangl') throw new Error(`face check: no usable backend (${backend})`);
  await human.load();

  const lumaCanvas = document.createElement('canvas');
  const lumaContext = lumaCanvas.getContext('2d', { willReadFrequently: true });
  const meter = new RateMeter();

  function frameBrightness(video: HTMLVideoElement): number {
    if (!lumaContext) return 1;
    const width = LUMA_WIDTH;
    const height = Math.max(1, Math.round((LUMA_WIDTH * video.videoHeight) / video.videoWidth));
    if (lumaCanvas.width !== width || lumaCanvas.height !== height) {
      lumaCanvas.width = width;
      lumaCanvas.height = height;
    }
    lumaContext.drawImage(video, 0, 0, width, height);
    return rgbaBrightness(lumaContext.getImageData(0, 0, width, height).data, width, height);
  }

  async function runCheck(video: HTMLVideoElement): Promise<FaceCheckResult> {
    if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || !video.videoWidth) {
      throw new Error('face check: the video has no frame yet');
    }
    const started = performance.now();
    const luma = frameBrightness(video);
    const result = await human.detect(video);
    if (result.error) throw new Error(`face check: ${result.error}`);
    const faces = result.face.map((f) => toFaceData(withEnginePose(f as DetectedFace)));
    const flags = qualityFlags(faces, luma);
    const main = mainFace(faces);
    const frame = { width: video.videoWidth, height: video.videoHeight };
    const finished = performance.now();
    return {
      status: faceCheckStatus(flags),
      flags,
      faceCount: faces.length,
      brightness: luma,
      pose: main?.pose ?? null,
      box: main?.box ?? null,
      frame,
      distance: main ? faceDistance(main.box, frame) : null,
      faceCut: main?.landmarks.some((p) => outsideFrame(p, frame)) ?? false,
      fps: meter.tick(finished),
      duration: finished - started,
    };
  }

  // Human holds one state: checks run one after another.
  let queue: Promise<unknown> = Promise.resolve();
  function check(video: HTMLVideoElement): Promise<FaceCheckResult> {
    const next = queue.then(() => runCheck(video));
    queue = next.catch(() => undefined);
    return next;
  }

  let generation = 0;
  let cancel: (() => void) | null = null;

  function stop(): void {
    generation++;
    cancel?.();
    cancel = null;
  }

  function start(video: HTMLVideoElement, onResult: (r: FaceCheckResult) => void, onError?: (e: unknown) => void) {
    stop();
    meter.reset();
    const run = generation;
    const tick = async () => {
      cancel = null;
      if (run !== generation) return;
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth && !video.paused) {
        try {
          const result = await check(video);
          if (run === generation) onResult(result);
        } catch (error) {
          if (run === generation) onError?.(error);
        }
      }
      schedule();
    };
    // Each new camera frame once (requestVideoFrameCallback), with a timer for a video the page does
    // not render, which gets no frame callbacks.
    const schedule = () => {
      if (run !== generation) return;
      let frame: number | null = null;
      let timer: ReturnType<typeof setTimeout> | null = null;
      const clear = () => {
        if (frame !== null) {
          if ('cancelVideoFrameCallback' in video) video.cancelVideoFrameCallback(frame);
          else cancelAnimationFrame(frame);
        }
        if (timer !== null) clearTimeout(timer);
        frame = null;
        timer = null;
      };
      const fire = () => {
        clear();
        void tick();
      };
      frame =
        'requestVideoFrameCallback' in video ? video.requestVideoFrameCallback(fire) : requestAnimationFrame(fire);
      timer = setTimeout(fire, WATCHDOG_MS);
      cancel = clear;
    };
    schedule();
  }

  return { backend, check, start, stop };
}
