// npm run bench:session — one session as the worker runs it: a 640x480 webcam-like recording of
// BENCH_SECONDS (default 60) with a 10 s calibration and a research window in the middle third. Prints the
// analysis speed, how much of the recording was decoded, and the stored per-frame bytes. Asserts nothing.
import { decodeFramesTable } from '../packages/engine/src/frames-codec.ts';
import { createHuman } from '../packages/engine/src/node/human.ts';
import { analyzeSession } from '../packages/engine/src/node/session.ts';
import type { SessionEvent, SessionTask } from '../packages/engine/src/session-types.ts';
import { webcamLikeVideo } from './webcam-video.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);

async function main(): Promise<void> {
  const file = webcamLikeVideo('session', SECONDS, "'20+20*sin(t*0.7)'");
  const human = await createHuman();
  const third = (SECONDS * 1000) / 3;
  const dots = [
    [160, 140],
    [960, 140],
    [1760, 140],
    [160, 540],
    [960, 540],
    [1760, 540],
    [160, 940],
    [960, 940],
    [1760, 940],
  ];
  const events: SessionEvent[] = [
    { type: 'screen', t: 0, width: 1920, height: 1080, device_pixel_ratio: 1 },
    { type: 'calibration_start', t: 0 },
    ...dots.map(([x, y], i) => ({ type: 'calibration_dot', t: i * 1000, x, y })),
    { type: 'calibration_end', t: dots.length * 1000 },
    { type: 'research_start', t: third, campaign_id: 'bench', index: 0 },
    { type: 'video_play', t: third, time: 0 },
    { type: 'research_end', t: 2 * third, campaign_id: 'bench' },
  ];
  const research: SessionTask['research'] = {
    researchId: 'bench',
    kind: 'video',
    items: [{ width: 1280, height: 720 }],
    durationSeconds: third / 1000,
  };
  const runs: [string, SessionTask][] = [
    ['calibration + research window', { sources: [{ file, offsetMs: 0 }], events, research }],
    ['whole recording (research: null)', { sources: [{ file, offsetMs: 0 }], events, research: null }],
  ];
  for (const [label, task] of runs) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await analyzeSession(task, { human });
    const wall = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const table = decodeFramesTable(result.frames);
    console.log(
      `${label.padEnd(34)} ${result.frameCount} frames, ${result.recordingSeconds.toFixed(0)} of ${SECONDS} s decoded, ` +
        `${wall.toFixed(1)} s wall (${(result.frameCount / wall).toFixed(1)} frames/s, ` +
        `${((used.user + used.system) / 1e3 / result.frameCount).toFixed(0)} ms CPU/frame), ` +
        `real-time factor ${(result.recordingSeconds / wall).toFixed(2)}x, ` +
        `${(result.frames.length / result.frameCount).toFixed(1)} B/frame stored (${table.rows} rows), ` +
        `calibration ${result.summary.calibration.status}`,
    );
  }
}

await main();
