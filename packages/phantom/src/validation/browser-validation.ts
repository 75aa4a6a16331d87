/**
 * `npm run validate -- --browser` (issue 32, item 4, its second sentence; decision 070): the validation's gaze and
 * expression phantoms read by privacy mode's page in headless Chromium (a fake camera playing each one for one loop)
 * and by the server's engine on the same frames, each measured against its truth as the validation measures the
 * server, and the figures set side by side. One case at a time, in real time (the browser needs the cores).
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_ANALYSIS_RATE } from '@emolens/contracts';
import type { SessionResult } from '@emolens/engine';
import { generate } from '../generate.ts';
import type { TruthFile } from '../truth.ts';
import { readOnServer, sessionFromReadings } from './browser-equivalence.ts';
import { readInBrowser } from './browser-reader.ts';
import type { ValidationCase } from './cases.ts';
import { numberRecording } from './equivalence-phantom.ts';
import { type ExpressionMeasurement, type GazeMeasurement, measureExpressions, measureGaze } from './measure.ts';
import { measuredFrames, measuredGaze, phantomTask } from './run-engine.ts';

/** What one side's readings measure. */
export interface SideFigures {
  gaze?: GazeMeasurement;
  expressions?: ExpressionMeasurement[];
}

export interface BrowserCaseResult {
  case: ValidationCase;
  browser: SideFigures;
  server: SideFigures;
  /** Full frames the page read and dropped, and the worker's ms a frame. */
  page: { full: number; dropped: number; meanMs: number };
}

function figures(c: ValidationCase, result: SessionResult, truth: TruthFile['frames']): SideFigures {
  const out: SideFigures = {};
  if (c.kind === 'gaze') out.gaze = measureGaze(c.plan, measuredGaze(result), truth, result);
  if (c.kind === 'expressions') out.expressions = measureExpressions(c.script, c.plan, measuredFrames(result), truth);
  return out;
}

/** The gaze and expression cases of `cases`, each read in the browser and by the server on the same frames. */
export async function runBrowserCases(
  cases: readonly ValidationCase[],
  dir: string,
  onCase?: (c: ValidationCase, index: number, done: boolean) => void,
): Promise<BrowserCaseResult[]> {
  const results: BrowserCaseResult[] = [];
  for (const [i, c] of cases.entries()) {
    if (c.kind !== 'gaze' && c.kind !== 'expressions') continue;
    onCase?.(c, i, false);
    const made = await generate(c.script, dir, { reuse: true });
    const truth = (JSON.parse(readFileSync(made.truth, 'utf8')) as TruthFile).frames;
    const numbered = numberRecording(made, c.script);
    const browser = await readInBrowser(numbered, c.plan.events);
    const task = {
      ...phantomTask(numbered.video, c.plan, DEFAULT_ANALYSIS_RATE),
      gazeFps: browser.readings.sampling.gazeFps,
    };
    const server = await readOnServer(task, browser.readings);
    const { stats } = browser.page;
    results.push({
      case: c,
      browser: figures(c, await sessionFromReadings(task, browser.readings), truth),
      server: figures(c, await sessionFromReadings(task, server.readings), truth),
      page: { full: stats.analysed.full, dropped: stats.dropped.full, meanMs: stats.meanMs },
    });
    onCase?.(c, i, true);
  }
  return results;
}

const n = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits);
const pair = (a: number | null | undefined, b: number | null | undefined, digits = 0) =>
  `${n(a, digits)} / ${n(b, digits)}`;

/** The figures side by side (browser / server), as markdown. */
export function browserValidationMarkdown(results: readonly BrowserCaseResult[], heading: string): string {
  const lines = [
    `# Validation phantoms through privacy mode's browser path`,
    '',
    heading,
    '',
    'Each cell: from the browser’s readings / from the server’s engine on the same frames (decision 070).',
    '',
    '| phantom | page: full frames read (dropped), ms a frame | calibration px | gaze median px | gaze p95 px | precision px |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results.filter((x) => x.browser.gaze)) {
    const [b, s] = [r.browser.gaze, r.server.gaze] as GazeMeasurement[];
    lines.push(
      `| ${r.case.script.source} ${r.case.script.name} | ${r.page.full} (${r.page.dropped}), ${n(r.page.meanMs)} | ` +
        `${pair(b?.calibration.accuracyPx, s?.calibration.accuracyPx)} | ${pair(b?.overall.medianPx, s?.overall.medianPx)} | ` +
        `${pair(b?.overall.p95Px, s?.overall.p95Px)} | ${pair(b?.overall.precisionPx, s?.overall.precisionPx, 1)} |`,
    );
  }
  lines.push(
    '',
    '| phantom | page: full frames read (dropped) | expression | hits / injected | onset errors ms | false alarms | correlation |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const r of results.filter((x) => x.browser.expressions)) {
    const server = r.server.expressions ?? [];
    for (const [i, b] of (r.browser.expressions ?? []).entries()) {
      const s = server[i];
      const onsets = (m?: ExpressionMeasurement) =>
        m?.onsetErrorsMs.length ? m.onsetErrorsMs.map((e) => n(e)).join(', ') : '—';
      lines.push(
        `| ${r.case.script.source} ${r.case.script.name} | ${r.page.full} (${r.page.dropped}) | ${b.measuredAs} | ` +
          `${b.hits}/${b.injected} / ${s?.hits ?? '—'}/${s?.injected ?? '—'} | ${onsets(b)} / ${onsets(s)} | ` +
          `${pair(b.falseAlarms, s?.falseAlarms)} | ${pair(b.correlation, s?.correlation, 2)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
