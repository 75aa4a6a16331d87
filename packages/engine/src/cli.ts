// npm run analyze -- recording.webm [--events events.json] [--fps 10] [--out result.json] [--multi-face]
// npm run analyze -- --session task.json [--out result.json]   (the worker's analyzeSession on a SessionTask)
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EngineError } from './errors.ts';
import { framesToCsv } from './frames-codec.ts';
import { samplingFor } from './node/analyze.ts';
import { probeVideo } from './node/ffmpeg.ts';
import { analyzeRecording, type RecordingAnalysis, readEventLog } from './node/recording.ts';
import { analyzeSession } from './node/session.ts';
import type { SessionTask } from './session-types.ts';
import { EXPRESSIONS } from './types.ts';

const USAGE = `Usage: npm run analyze -- <recording> [options]

  --events FILE     stimulus event log (calibration dots) for gaze and baseline correction
  --fps N           sampling rate, frames per second (default 10, at most the source's)
  --max-width N     analysis width in pixels (default 640)
  --multi-face      keep every face; several faces do not make a frame bad
  --out FILE        where to write the full result (default <recording>.analysis.json)

  --session FILE    analyse a SessionTask (JSON; source paths relative to it) as the worker does; writes the
                    result without the frame bytes to --out (default <task>.result.json) and the frames as
                    CSV next to it (<out>.frames.csv)`;

async function runSession(taskFile: string, outFile: string | undefined): Promise<void> {
  let task: SessionTask;
  try {
    task = JSON.parse(await readFile(taskFile, 'utf8')) as SessionTask;
  } catch (error) {
    throw new EngineError('invalid_options', `The task is not readable JSON: ${taskFile}`, { cause: error });
  }
  const dir = dirname(taskFile);
  task = { ...task, sources: (task.sources ?? []).map((s) => ({ ...s, file: resolve(dir, s.file) })) };
  const out = outFile ?? `${taskFile.replace(/\.json$/, '')}.result.json`;
  const started = performance.now();
  const result = await analyzeSession(task, {
    onProgress: (p) => process.stderr.write(`  ${p.stage} ${(p.fraction * 100).toFixed(0)}%  ${p.frames} frames\n`),
  });
  const seconds = (performance.now() - started) / 1000;
  const { frames, ...rest } = result;
  await writeFile(out, `${JSON.stringify({ ...rest, framesBytes: frames.length }, null, 1)}\n`);
  await writeFile(`${out.replace(/\.json$/, '')}.frames.csv`, framesToCsv(frames));
  const s = result.summary;
  process.stdout.write(
    [
      '',
      `Emolens engine ${result.engineVersion}: ${result.frameCount} frames (${result.recordingSeconds.toFixed(1)} s decoded) in ${seconds.toFixed(1)} s`,
      `Window     ${(s.windowMs.start / 1000).toFixed(1)}–${(s.windowMs.end / 1000).toFixed(1)} s, ${s.frames} frames, bad ${pct(s.badFrameShare)}`,
      `Verdict    ${s.usable ? 'usable' : `excluded: ${s.excludedReason}`}`,
      `Gaze       ${s.calibration.status}${s.calibration.accuracyPx === null ? '' : `, ${s.calibration.accuracyPx.toFixed(0)} px (${num(s.calibration.accuracyPercent, 1)}%)`}${s.calibration.reason ? `: ${s.calibration.reason}` : ''}`,
      `Series     ${result.series.timeline}, ${result.series.second.length} buckets; engagement ${num(s.meanEngagement)}, valence ${num(s.meanValence)}, attention ${pct(s.attentionShare)}`,
      `Frames     ${(frames.length / Math.max(1, result.frameCount)).toFixed(1)} B/frame stored`,
      ...result.warnings.map((w) => `Warning    ${w}`),
      `Result     ${out}`,
      '',
    ].join('\n'),
  );
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null, digits = 2) => (v === null ? '—' : v.toFixed(digits));

function progressBar(done: number, total: number | null, started: number): string {
  const elapsed = (performance.now() - started) / 1000;
  const rate = done / Math.max(elapsed, 1e-3);
  if (!total) return `  ${done} frames  ${rate.toFixed(1)} frames/s`;
  const share = Math.min(1, done / total);
  const width = 30;
  const filled = Math.round(share * width);
  const eta = rate > 0 ? Math.max(0, (total - done) / rate) : 0;
  return `  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${done}/${total} frames  ${rate.toFixed(1)} frames/s  ETA ${eta.toFixed(0)} s`;
}

function summary(result: RecordingAnalysis, seconds: number, out: string): string {
  const s = result.summary;
  const lines = [
    '',
    `Emolens engine ${result.engineVersion}`,
    `Source     ${result.source.width}x${result.source.height} ${result.source.codec}, ${num(result.source.durationSeconds, 1)} s; analysed ${s.frames} frames at ${num(result.sampling.fps, 1)} fps, ${result.sampling.width}x${result.sampling.height}`,
    `Speed      ${(s.frames / seconds).toFixed(1)} frames/s, real-time factor ${(s.durationSeconds / seconds).toFixed(2)}x`,
    `Faces      found in ${s.frames - s.badFramesByReason.no_face} of ${s.frames} frames${s.badFramesByReason.several_faces ? `, several faces in ${s.badFramesByReason.several_faces}` : ''}`,
    `Bad frames ${pct(s.badFrameShare)} (no face ${s.badFramesByReason.no_face}, several faces ${s.badFramesByReason.several_faces}, head turned ${s.badFramesByReason.head_turned}); allowed ${pct(s.allowedBadFrameShare)}${s.excluded ? ' -> EXCLUDED from reports' : ''}`,
  ];
  if (s.meanExpressions) {
    const me = s.meanExpressions;
    const sorted = [...EXPRESSIONS].sort((a, b) => me[b] - me[a]);
    lines.push(`Emotions   ${sorted.map((e) => `${e} ${pct(me[e])}`).join(', ')}`);
  } else {
    lines.push('Emotions   no usable frames');
  }
  lines.push(
    `Engagement ${num(s.meanEngagement)}   valence ${num(s.meanValence)}   attention ${pct(s.attentionShare)}`,
  );
  const g = result.gaze;
  if (g.status === 'calibrated') {
    lines.push(
      `Gaze       calibrated: accuracy ${g.accuracyPx.toFixed(0)} px (${g.accuracyPercentOfDiagonal.toFixed(1)}% of the screen diagonal) on ${g.validationSamples} validation samples; ${pct(s.gazeOnScreenShare)} of gaze on screen`,
    );
  } else if (g.status === 'calibration_failed') {
    lines.push(`Gaze       calibration failed: ${g.reason}`);
  } else {
    lines.push('Gaze       not computed (no --events log)');
  }
  const corrected = result.series.baselineCorrected;
  if (corrected) {
    lines.push(
      `Baseline   calibration means subtracted: engagement ${num(corrected.engagement.baseline)}, valence ${num(corrected.valence.baseline)}`,
    );
  }
  for (const w of result.warnings) lines.push(`Warning    ${w}`);
  lines.push(`Result     ${out}`, '');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      events: { type: 'string' },
      fps: { type: 'string', default: '10' },
      'max-width': { type: 'string', default: '640' },
      'multi-face': { type: 'boolean', default: false },
      out: { type: 'string' },
      session: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  // npm runs scripts from the package folder; paths are the caller's.
  const base = process.env.INIT_CWD ?? process.cwd();
  if (values.session && !values.help) {
    await runSession(resolve(base, values.session), values.out ? resolve(base, values.out) : undefined);
    return;
  }
  if (values.help || positionals.length !== 1) {
    console.error(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const file = resolve(base, positionals[0] ?? '');
  const out = resolve(base, values.out ?? `${positionals[0]}.analysis.json`);
  const fps = Number(values.fps);
  const maxWidth = Number(values['max-width']);
  const events = values.events ? await readEventLog(resolve(base, values.events)) : undefined;

  const info = await probeVideo(file);
  const sampling = samplingFor(info, { fps, maxWidth });
  const expected = info.durationSeconds ? Math.round(info.durationSeconds * sampling.fps) : null;
  const tty = process.stderr.isTTY;
  const started = performance.now();
  let lastPrint = 0;

  // Frames go to disk as they come: the result file holds every landmark without the process holding them.
  const output = createWriteStream(out);
  const write = async (text: string) => {
    if (!output.write(text)) await once(output, 'drain');
  };
  await write('{"frames":[');
  let first = true;
  const result = await analyzeRecording(file, {
    info,
    fps,
    maxWidth,
    multiFace: values['multi-face'],
    events,
    onFrame: async (frame) => {
      await write(`${first ? '' : ','}\n${JSON.stringify(frame)}`);
      first = false;
    },
    onProgress: ({ frames }) => {
      const now = performance.now();
      if (now - lastPrint < (tty ? 200 : 5000)) return;
      lastPrint = now;
      process.stderr.write(`${tty ? '\r' : ''}${progressBar(frames, expected, started)}${tty ? '' : '\n'}`);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`${tty ? '\r' : ''}${progressBar(result.summary.frames, result.summary.frames, started)}\n`);
  await write(`\n],${JSON.stringify(result).slice(1)}\n`);
  output.end();
  await once(output, 'finish');
  process.stdout.write(summary(result, seconds, out));
}

main().catch((error: unknown) => {
  if (error instanceof EngineError) {
    console.error(`error: ${error.code}: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
