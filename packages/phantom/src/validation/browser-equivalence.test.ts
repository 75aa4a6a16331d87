/**
 * Privacy mode's equivalence test (issue 32, item 4; decision 070): one phantom recording analysed on the server (the
 * session analysis on its video) and in headless Chromium (a fake camera playing it, the respondent page's reader and
 * the engine's Web Worker, readings chunks → `analyzeReadings`). Every per-second series the report reads, and every
 * analysed frame, within decision 070's tolerance, on the frames both read (a loaded machine's page drops frames).
 * Needs /usr/bin/chromium: without it the test fails, it is never skipped.
 */
import { resolve } from 'node:path';
import { DEFAULT_ANALYSIS_RATE } from '@emolens/contracts';
import type { SessionResult } from '@emolens/engine';
import { DEFAULT_GAZE_FPS } from '@emolens/engine/browser/onnx';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  equivalenceTask,
  type FrameDifferences,
  frameDifferences,
  framesOverTolerance,
  overTolerance,
  readOnServer,
  type SeriesDifference,
  type ServerReading,
  seriesDifferences,
  sessionFromReadings,
  throughCodec,
} from './browser-equivalence.ts';
import { type BrowserReading, readInBrowser } from './browser-reader.ts';
import { type EquivalencePhantom, equivalencePhantom } from './equivalence-phantom.ts';

/** Where the validation keeps its phantoms (reused while their inputs are the same). */
const PHANTOMS = resolve(import.meta.dirname, '../../../../.tmp/phantoms');
const RATES = { fps: DEFAULT_ANALYSIS_RATE, gazeFps: DEFAULT_GAZE_FPS };

let phantom: EquivalencePhantom;
let browser: BrowserReading;
let server: ServerReading;
let fromBrowser: SessionResult;
let fromServer: SessionResult;
let series: SeriesDifference[];
let frames: FrameDifferences;

beforeAll(async () => {
  const started = performance.now();
  phantom = await equivalencePhantom(PHANTOMS);
  // The browser first, alone on the machine's cores; then the server's engine on the frames it read.
  const made = performance.now();
  browser = await readInBrowser(phantom, phantom.plan.events);
  const read = performance.now();
  server = await readOnServer(equivalenceTask(phantom, RATES), browser.readings);
  const serverMs = performance.now() - read;
  fromBrowser = await sessionFromReadings(server.task, browser.readings);
  fromServer = await sessionFromReadings(server.task, server.readings);
  series = seriesDifferences(fromBrowser.series, fromServer.series);
  // Measured, not enforced: the server's readings through the codec too, so only the browser's own part differs
  // (decision 073: what remains above is the codec's quantisation, amplified by the gaze calibration).
  const coded = seriesDifferences(
    fromBrowser.series,
    (await sessionFromReadings(server.task, await throughCodec(server.readings))).series,
  );
  const codedLine = coded
    .filter((d) => ['gazeX', 'gazeY', 'attention', 'smile', 'engagement'].includes(d.name))
    .map((d) => `${d.name} ${d.max.toPrecision(2)}`)
    .join(', ');
  frames = frameDifferences({ readings: browser.readings, ...browser.page }, server);
  const { stats, lag } = browser.page;
  const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;
  process.stdout.write(
    [
      `browser equivalence (decision 070), ${((performance.now() - started) / 1000).toFixed(1)} s: the phantom ` +
        `${((made - started) / 1000).toFixed(1)} s, the browser ${(browser.ms / 1000).toFixed(1)} s, the server ${(serverMs / 1000).toFixed(1)} s`,
      `  read ${stats.analysed.full} full + ${stats.analysed.light} light frames, dropped ${stats.dropped.full} full + ` +
        `${stats.dropped.light} light (${stats.meanMs.toFixed(0)} ms a frame in the worker); ` +
        `${browser.page.seen.length} camera frames seen, ${browser.page.missed} missed; camera k ${browser.page.k}; ` +
        `worker loaded in ${browser.page.loadMs.toFixed(0)} ms, the recording's start came ${browser.page.waitedMs.toFixed(0)} ms after the camera opened`,
      `  calibration accuracy: browser ${fromBrowser.summary.calibration.accuracyPx?.toFixed(0)} px, server on the same frames ${fromServer.summary.calibration.accuracyPx?.toFixed(0)} px`,
      `  camera capture time less picture time: ${ms(lag.min)} … ${ms(lag.median)} … ${ms(lag.max)}`,
      `  frames compared ${frames.compared} (same slot ${frames.matched}, same picture ${frames.samePicture}, settled ${frames.settled}); ` +
        `picture steps full ${JSON.stringify(frames.pictureSteps.full)} light ${JSON.stringify(frames.pictureSteps.light)}`,
      `  per frame, largest (median): ${Object.entries(frames.largest)
        .map(([k, v]) => `${k} ${v.toPrecision(2)} (${frames.median[k as keyof typeof frames.median].toPrecision(2)})`)
        .join(', ')}`,
      `  per second against the server's readings through the readings codec too, largest: ${codedLine}`,
      '  per second, largest (mean) difference / tolerance:',
      ...series.map(
        (d) =>
          `    ${d.name.padEnd(34)} ${d.max.toPrecision(3).padStart(9)} (${d.mean.toPrecision(2)}) / ${d.tolerance}`,
      ),
    ].join('\n'),
  );
}, 300_000);

describe('privacy mode: the browser reads a recording as the server does', () => {
  it('reads one loop of the camera on the recording’s own clock, enough of it to calibrate', () => {
    const { stats } = browser.page;
    // Enough frames for the comparison to mean something (a calibration needs 20 usable frames): a page too slow for
    // that here says so rather than passing on nothing.
    expect(
      fromBrowser.summary.calibration.status,
      'the browser’s readings calibrate (enough frames, at their times)',
    ).toBe('calibrated');
    expect(fromServer.summary.calibration.status).toBe('calibrated');
    expect(stats.analysed.full).toBeGreaterThanOrEqual(20);
    expect(stats.chunks).toBeGreaterThanOrEqual(2);
    // Every frame the browser read inside the session's windows (the server decodes from the calibration's start to
    // the research's end) was found at the same slot on the server.
    const ms = (type: string) => server.task.events.find((e) => e.type === type)?.t ?? Number.NaN;
    const inside = (f: { time: number }) =>
      f.time * 1000 >= ms('calibration_start') && f.time * 1000 < ms('research_end');
    const read = [...browser.readings.full, ...browser.readings.light].filter(inside).length;
    expect(frames.matched).toBe(read);
  });

  it('gives every frame it read as the server does, within the per-frame tolerance', () => {
    expect(framesOverTolerance(frames)).toEqual([]);
    expect(frames.compared).toBeGreaterThan(20);
    // The medians' frames (`SETTLED_SECONDS` after any slot read from different pictures).
    expect(frames.settled).toBeGreaterThan(20);
  });

  it('gives the same per-second series within decision 070’s tolerance', () => {
    expect(fromBrowser.series.second.length).toBeGreaterThan(0);
    // Every series compared somewhere (gaze included: calibrated on both sides).
    for (const d of series) expect(d.compared, d.name).toBeGreaterThan(0);
    expect(overTolerance(series)).toEqual([]);
  });
});
