/**
 * The page of the browser equivalence runs (issue 32, item 4; decision 070), bundled by browser-reader.ts and loaded
 * in headless Chromium whose fake camera plays a phantom's y4m (`MARKER_FRAMES` black frames, then the recording,
 * looping; every picture numbered: frame-codes.ts). It reads one loop of the camera as a privacy-mode respondent page
 * does — the engine's Web Worker, `watchVideoFrames`, `LiveReader` on the server decoder's grid, readings chunks
 * encoded for upload — and hands the chunks back with the picture each analysed frame showed.
 *
 * The segment's clock is the recording's own: a frame is offered at its picture's time (number / rate), not at its
 * capture time. On this loaded machine Chromium's file camera plays the file slower than its rate (its frames lag
 * their pictures' times by up to ~200 ms by the end of a 12 s loop, and by tens of ms from frame to frame), which a
 * real camera filming the world does not; the capture times' lag is measured and returned. Everything after the
 * clock — the decoder's grid, dropping, the worker, chunks — is the respondent page's. The recording starts at the
 * first picture after the marker; a marker whose end is not followed by picture 0 (the page joined mid-loop, or missed
 * that frame) is not used, and the page waits for the next loop's.
 */
import {
  cameraShape,
  encodeReadings,
  LiveReader,
  type LiveReaderStats,
  liveSampling,
  startEngineWorker,
  watchVideoFrames,
} from '@emolens/engine/browser/onnx';
import { CODE_BITS, CODE_PX, pictureOf, readCode } from './frame-codes.ts';

export interface ReadLoopOptions {
  /** The analysis's rates, as the respondent page reads (`deviceRates`). */
  fps: number;
  gazeFps: number;
  /** The recording's frames and rate in the camera's file. */
  frames: number;
  cameraFps: number;
  /** Camera loops to wait for a usable marker before giving up. */
  attempts: number;
  /** Seconds of the recording where the engine starts afresh (`LiveReader.restartAt`). */
  restarts: number[];
}

export interface ReadLoopResult {
  /** The readings chunks as the page would upload them, in order. */
  chunks: number[][];
  stats: LiveReaderStats;
  k: number;
  camera: { width: number; height: number; fps: number | null };
  /** Whether the frames carried the camera's capture time (else the display's time stood in). */
  captureTimes: boolean;
  /** Markers seen but not used. */
  markersRejected: number;
  /** The picture each analysed frame showed, full and light frames in the readings' order. */
  pictures: { full: number[]; light: number[] };
  /** The pictures the page saw during the recording (its frame callbacks), and the ones it never saw. */
  seen: number[];
  missed: number;
  /**
   * A seen frame's capture time less its picture's time (s), from the recording's first frame: how the camera's own
   * clock strays from the file's, smallest, median and largest.
   */
  lag: { min: number; median: number; max: number };
  loadMs: number;
  /** From the camera's opening to the recording's first picture (a marker missed costs a loop), ms. */
  waitedMs: number;
}

const CODE_WIDTH = CODE_BITS * CODE_PX;

function quantiles(values: number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: sorted[0] ?? Number.NaN,
    median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

async function readLoop(o: ReadLoopOptions): Promise<ReadLoopResult> {
  const engine = await startEngineWorker(new Worker('/worker.js', { type: 'module' }), {
    threads: 1,
    keepLandmarks: false,
  });
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 30 } },
    audio: false,
  });
  const video = Object.assign(document.createElement('video'), { muted: true, playsInline: true, srcObject: stream });
  document.body.append(video);
  await video.play();
  if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || !video.videoWidth) {
    await new Promise<void>((resolve) => video.addEventListener('loadeddata', () => resolve(), { once: true }));
  }
  const opened = performance.now();
  const camera = cameraShape(video);
  const { k, readings } = liveSampling(camera, { fps: o.fps, gazeFps: o.gazeFps });
  const size = { width: readings.width, height: readings.height };
  const codes = new OffscreenCanvas(CODE_WIDTH, CODE_PX).getContext('2d', { willReadFrequently: true });
  if (!codes) throw new Error('no 2d canvas');
  // The picture on show (read beside the reader's own grab, which happens only for an analysed frame).
  const picture = () => {
    codes.drawImage(video, 0, 0, CODE_WIDTH, CODE_PX, 0, 0, CODE_WIDTH, CODE_PX);
    return pictureOf(readCode(codes.getImageData(0, 0, CODE_WIDTH, CODE_PX).data, CODE_WIDTH, 4));
  };
  const frameSeconds = 1 / o.cameraFps;
  const chunks: number[][] = [];
  const pictures = { full: [] as number[], light: [] as number[] };
  let captureTimes = true;
  let markersRejected = 0;
  let marker = 0;
  let origin: number | null = null;
  let loops = 0;
  const seen: number[] = [];
  let missed = 0;
  let waitedMs = 0;
  let last = -1;
  const lags: number[] = [];
  let reader: LiveReader | null = null;
  let done: (error?: Error) => void = () => {};
  const finished = new Promise<void>((resolve, reject) => {
    done = (error) => (error ? reject(error) : resolve());
  });
  const reject = (why: string) => {
    markersRejected++;
    marker = 0;
    if (loops >= o.attempts) done(new Error(`no usable marker in ${loops} camera loops: ${why}`));
  };
  const stop = watchVideoFrames(video, size, 0, (time, grab, previous) => {
    const p = picture();
    if (origin === null) {
      if (p < 0) {
        if (marker === 0) loops++;
        marker++;
        return;
      }
      if (marker === 0) return;
      if (p !== 0) return reject(`the recording's first picture was not seen (picture ${p} came first)`);
      origin = time;
      waitedMs = performance.now() - opened;
      reader = new LiveReader({
        engine,
        sampling: readings,
        k,
        encode: encodeReadings,
        onChunk: (_index, data) => {
          chunks.push([...data]);
        },
        onError: (error) => done(error instanceof Error ? error : new Error(String(error))),
      });
      for (const seconds of o.restarts) reader.restartAt(seconds);
    }
    // The marker again: the loop is over.
    if (p < 0 || p >= o.frames) {
      stop();
      reader?.finish().then(() => done(), done);
      return;
    }
    seen.push(p);
    missed += Math.max(0, p - last - 1);
    const previousPicture = last;
    last = p;
    lags.push(time - origin - p * frameSeconds);
    // A full slot the camera jumped over is read from the picture before (the reader says so by asking for it).
    let before = false;
    const outcome = reader?.offer(
      p * frameSeconds,
      grab,
      previous &&
        (() => {
          before = true;
          return previous();
        }),
    );
    if (outcome === 'full' || outcome === 'light') pictures[outcome].push(before ? previousPicture : p);
  });
  // watchVideoFrames reads `captureTime` where the browser gives it; whether it does, asked of one frame here.
  video.requestVideoFrameCallback((_now, metadata) => {
    captureTimes = (metadata as { captureTime?: number }).captureTime !== undefined;
  });
  try {
    await finished;
  } finally {
    stop();
    for (const track of stream.getTracks()) track.stop();
  }
  const stats = (reader as LiveReader | null)?.stats();
  engine.terminate();
  if (!stats) throw new Error('the page read nothing');
  return {
    chunks,
    stats,
    k,
    camera,
    captureTimes,
    markersRejected,
    pictures,
    seen,
    missed,
    lag: quantiles(lags),
    loadMs: engine.loadMs,
    waitedMs,
  };
}

(globalThis as unknown as { readLoop: typeof readLoop }).readLoop = readLoop;
export type ReadLoop = typeof readLoop;
