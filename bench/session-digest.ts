// npm run bench:session-digest — a fingerprint of analyzeSession's whole output on real recordings, to check
// that a change meant to keep the numbers (e.g. the frame store) keeps them to the last bit: run it on both
// revisions and compare. ENGINE_SRC=<other checkout>/packages/engine/src runs another checkout's engine on the same
// recordings; BLOCK_FRAMES passes `blockFrames` (engines that know it). Each session gets a fresh Human, so
// Human's frame-to-frame caching starts alike. Prints one line per session; asserts nothing.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ffmpegPaths } from '../packages/engine/src/node/ffmpeg.ts';
import type { SessionEvent, SessionResult, SessionTask } from '../packages/engine/src/session-types.ts';
import { calibratedPicturesTask, PHOTOS, photoSequenceVideo } from '../packages/engine/test/fixtures.ts';

const SRC = resolve(process.env.ENGINE_SRC ?? resolve(import.meta.dirname, '../packages/engine/src'));
const { analyzeSession } = (await import(pathToFileURL(resolve(SRC, 'node/session.ts')).href)) as {
  analyzeSession: (task: SessionTask, options: object) => Promise<SessionResult>;
};
const { createHuman } = (await import(pathToFileURL(resolve(SRC, 'node/human.ts')).href)) as {
  createHuman: () => Promise<unknown>;
};
const blockFrames = process.env.BLOCK_FRAMES ? Number(process.env.BLOCK_FRAMES) : undefined;
const DIR = resolve(import.meta.dirname, '../.tmp/bench');
const SCREEN: SessionEvent = { type: 'screen', t: 0, width: 1920, height: 1080, device_pixel_ratio: 1 };

/** bench:processing's webcam-like minute (made here the same way when missing). */
function minute(): string {
  mkdirSync(DIR, { recursive: true });
  const file = resolve(DIR, 'processing-640x480-60s.webm');
  if (existsSync(file)) return file;
  execFileSync(ffmpegPaths().ffmpeg, [
    ...['-v', 'error', '-y', '-loop', '1', '-i', PHOTOS.astronaut, '-t', '60', '-r', '30', '-vf'],
    [
      "scale='trunc(720*(1+0.06*sin(t*0.7))/2)*2':-2:eval=frame",
      "crop=640:480:'(iw-640)/2+25*sin(t*0.9)':'(ih-480)/2+20*sin(t*1.1)'",
      "rotate='0.1*sin(t*1.3)'",
    ].join(','),
    ...['-c:v', 'libvpx', '-b:v', '800k', '-deadline', 'realtime', '-cpu-used', '8', file],
  ]);
  return file;
}

function sessions(): [string, SessionTask][] {
  const dots = [160, 960, 1760].flatMap((x) => [140, 540, 940].map((y) => [x, y] as const));
  return [
    ['pictures, calibrated, letterboxed', calibratedPicturesTask()],
    [
      'multi-face, a cut between two group photos',
      {
        sources: [
          {
            file: photoSequenceVideo([PHOTOS.fourPeople, PHOTOS.fivePeople], 'four-then-five.webm', { secondsEach: 2 }),
            offsetMs: 0,
          },
        ],
        events: [],
        research: null,
        multiFace: true,
      },
    ],
    [
      'webcam-like minute, calibration + video',
      {
        sources: [{ file: minute(), offsetMs: 0 }],
        events: [
          SCREEN,
          { type: 'calibration_start', t: 0 },
          ...dots.map(([x, y], i) => ({ type: 'calibration_dot', t: i * 1000, x, y })),
          { type: 'calibration_end', t: dots.length * 1000 },
          { type: 'research_start', t: 12_000, campaign_id: 'v', index: 0 },
          { type: 'video_play', t: 12_000, time: 0 },
          { type: 'video_pause', t: 30_000, time: 18 },
          { type: 'video_play', t: 33_000, time: 18 },
          { type: 'research_end', t: 58_000, campaign_id: 'v' },
        ],
        research: { researchId: 'v', kind: 'video', items: [{ width: 1280, height: 720 }], durationSeconds: 60 },
      },
    ],
  ];
}

for (const [label, task] of sessions()) {
  const human = await createHuman();
  const result = await analyzeSession(task, { human, ...(blockFrames ? { blockFrames } : {}) });
  const json = JSON.stringify({ ...result, frames: Buffer.from(result.frames).toString('base64') });
  const digest = createHash('sha256').update(json).digest('hex').slice(0, 16);
  console.log(
    `${label.padEnd(44)} ${digest}  ${result.frameCount} frames, ${result.series.second.length} buckets, ` +
      `${result.people.length} people, calibration ${result.summary.calibration.status} ${result.summary.calibration.accuracyPx?.toFixed(3) ?? ''}`,
  );
}
