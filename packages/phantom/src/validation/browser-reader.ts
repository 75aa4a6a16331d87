/**
 * A phantom read by privacy mode's respondent page in headless Chromium (issue 32, item 4; decision 070): the fake
 * camera plays the phantom's y4m, the page (browser-reader-page.ts) reads one loop of it with the engine's Web Worker
 * and `LiveReader`, and its readings chunks come back decoded and merged, on the recording's own clock, as the server
 * would receive them.
 */
import { join } from 'node:path';
import { DEFAULT_ANALYSIS_RATE } from '@emolens/contracts';
import { decodeReadings, type FrameReadings, mergeReadings } from '@emolens/engine';
import { DEFAULT_GAZE_FPS, rangeStartTimes } from '@emolens/engine/browser/onnx';
import {
  bundleForBrowser,
  ENGINE_WORKER_ENTRY,
  launchChromium,
  serveEnginePage,
} from '../../../engine/test/chromium.ts';
import type { ReadLoop, ReadLoopResult } from './browser-reader-page.ts';
import type { EquivalencePhantom } from './equivalence-phantom.ts';

export interface BrowserReading {
  readings: FrameReadings;
  page: Omit<ReadLoopResult, 'chunks'> & { chunks: number; bytes: number };
  /** Wall-clock ms: Chromium started to the readings decoded. */
  ms: number;
}

/** Bundled once a process: the page and the engine's worker. */
let scripts: Promise<{ page: string; worker: string }> | null = null;

/**
 * `events`: the session's event log on the recording's clock, as the page would have logged it while reading: where
 * the server starts a decode range, the page's engine starts afresh (decode-ranges.ts), as the respondent page's does.
 */
export async function readInBrowser(
  phantom: Pick<EquivalencePhantom, 'camera' | 'fps' | 'frames'>,
  events: readonly { type: string; t: number }[],
  options: { attempts?: number } = {},
): Promise<BrowserReading> {
  const started = performance.now();
  const restarts = rangeStartTimes(events).map((t) => t / 1000);
  scripts ??= Promise.all([
    bundleForBrowser(join(import.meta.dirname, 'browser-reader-page.ts')),
    bundleForBrowser(ENGINE_WORKER_ENTRY),
  ]).then(([page, worker]) => ({ page, worker }));
  const server = await serveEnginePage(await scripts);
  const browser = await launchChromium({ camera: phantom.camera });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.address);
    await page.waitForFunction(() => 'readLoop' in globalThis);
    const result = await page
      .evaluate((o) => (globalThis as unknown as { readLoop: ReadLoop }).readLoop(o), {
        fps: DEFAULT_ANALYSIS_RATE,
        gazeFps: DEFAULT_GAZE_FPS,
        frames: phantom.frames,
        cameraFps: phantom.fps,
        attempts: options.attempts ?? 3,
        restarts,
      } satisfies Parameters<ReadLoop>[0])
      .catch((error: unknown) => {
        throw new Error(`the browser reader failed: ${error}${errors.length ? ` (page: ${errors.join('; ')})` : ''}`);
      });
    const decoded = await Promise.all(result.chunks.map((c) => decodeReadings(Uint8Array.from(c))));
    return {
      readings: mergeReadings(decoded),
      page: { ...result, chunks: result.chunks.length, bytes: result.chunks.reduce((s, c) => s + c.length, 0) },
      ms: performance.now() - started,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}
