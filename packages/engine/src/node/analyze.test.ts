import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { audioOnly, PHOTOS, requirePhotos, stillVideo, writeFixture } from '../../test/fixtures.ts';
import { EngineError } from '../errors.ts';
import type { FrameData } from '../types.ts';
import { EXPRESSIONS } from '../types.ts';
import { analyzeFrames, type FrameOptions } from './analyze.ts';
import { ffmpegPaths } from './ffmpeg.ts';
import { createHuman, type HumanLike } from './human.ts';

let human: HumanLike;
beforeAll(async () => {
  requirePhotos();
  human = await createHuman();
}, 120_000);

async function collect(file: string, options: FrameOptions = {}): Promise<FrameData[]> {
  const frames: FrameData[] = [];
  for await (const frame of analyzeFrames(file, { human, ...options })) frames.push(frame);
  return frames;
}

const top = (frame: FrameData) =>
  EXPRESSIONS.reduce((a, b) => ((frame.face?.expressions[a] ?? 0) >= (frame.face?.expressions[b] ?? 0) ? a : b));

describe('frame analysis on real faces', () => {
  it('finds the one smiling face of the astronaut, happy on top, in a VP8 webm', async () => {
    const frames = await collect(stillVideo(PHOTOS.astronaut, 'astronaut.webm', { seconds: 2, width: 512 }));
    expect(frames).toHaveLength(20);
    expect(frames.map((f) => f.time)).toEqual(frames.map((_, i) => expect.closeTo(i * 0.1, 5)));
    for (const frame of frames) {
      expect(frame.faceCount).toBe(1);
      expect(frame.flags).toEqual([]);
      expect(top(frame)).toBe('happy');
      expect(frame.face?.landmarks).toHaveLength(478);
      expect(frame.face?.eyes).not.toBeNull();
      const sum = EXPRESSIONS.reduce((s, e) => s + (frame.face?.expressions[e] ?? 0), 0);
      expect(sum).toBeCloseTo(1, 5);
      expect(Math.abs(frame.face?.pose.yaw ?? 99)).toBeLessThan(15);
    }
  });

  it('reads H.264 mp4 and VP9 webm too', async () => {
    const mp4 = await collect(stillVideo(PHOTOS.astronaut, 'astronaut.mp4', { seconds: 1, width: 512 }));
    const vp9 = await collect(stillVideo(PHOTOS.astronaut, 'astronaut.vp9.webm', { seconds: 1, width: 512 }));
    expect(mp4).toHaveLength(10);
    expect(vp9).toHaveLength(10);
    expect([...mp4, ...vp9].every((f) => f.faceCount === 1 && top(f) === 'happy')).toBe(true);
  });

  it('reports no face on a picture without one', async () => {
    const frames = await collect(stillVideo(PHOTOS.coffee, 'coffee.mp4', { seconds: 1, width: 600 }));
    expect(frames).toHaveLength(10);
    for (const frame of frames) {
      expect(frame.faceCount).toBe(0);
      expect(frame.face).toBeNull();
      expect(frame.flags).toContain('no_face');
    }
  });

  it('counts several faces and flags them; multi-face mode keeps every face', async () => {
    const file = stillVideo(PHOTOS.fourPeople, 'four-people.webm', { seconds: 1, width: 1280 });
    const single = await collect(file, { maxWidth: 1280 });
    expect(single.map((f) => f.faceCount)).toEqual(Array(10).fill(4));
    expect(single.every((f) => f.flags.includes('several_faces') && f.faces === undefined)).toBe(true);
    const multi = await collect(file, { maxWidth: 1280, multiFace: true, fps: 2 });
    expect(multi).toHaveLength(2);
    for (const frame of multi) {
      expect(frame.faces).toHaveLength(4);
      // The main face is the largest one.
      const areas = (frame.faces ?? []).map((f) => f.box.width * f.box.height);
      expect((frame.face?.box.width ?? 0) * (frame.face?.box.height ?? 0)).toBe(Math.max(...areas));
    }
  });

  it('finds five people in the five-person photo', async () => {
    const frames = await collect(stillVideo(PHOTOS.fivePeople, 'five-people.webm', { seconds: 1, width: 1280 }), {
      maxWidth: 1280,
      fps: 2,
    });
    expect(frames.map((f) => f.faceCount)).toEqual([5, 5]);
  });

  it('samples at the chosen rate, never above the source rate', async () => {
    const file = stillVideo(PHOTOS.astronaut, 'astronaut.webm', { seconds: 2, width: 512 });
    expect(await collect(file, { fps: 5 })).toHaveLength(10);
    expect(await collect(file, { fps: 30 })).toHaveLength(20);
  });
});

describe('bad input gives a typed error, never a hang', () => {
  const code = async (file: string) => {
    try {
      await collect(file);
      return 'no error';
    } catch (error) {
      expect(error).toBeInstanceOf(EngineError);
      return (error as EngineError).code;
    }
  };

  it('rejects a missing, empty, non-video, corrupt or audio-only file', async () => {
    expect(await code('/nonexistent/recording.webm')).toBe('file_not_found');
    expect(await code(writeFixture('empty.webm', new Uint8Array()))).toBe('empty_file');
    expect(await code(writeFixture('notes.webm', 'these are not video frames\n'.repeat(100)))).toBe('not_a_video');
    const noise = new Uint8Array(200_000).map((_, i) => (i * 2654435761) >>> 24);
    expect(await code(writeFixture('noise.mp4', noise))).toBe('not_a_video');
    expect(await code(audioOnly())).toBe('not_a_video');
  });

  it('analyses the frames a truncated recording still holds', async () => {
    const file = stillVideo(PHOTOS.astronaut, 'astronaut-gop5.webm', { seconds: 2, width: 512, keyframeEvery: 5 });
    const whole = readFileSync(file);
    const cut = writeFixture('truncated.webm', whole.subarray(0, Math.floor(whole.length * 0.6)));
    const frames = await collect(cut);
    expect(frames.length).toBeGreaterThan(5);
    expect(frames.length).toBeLessThan(20);
    expect(frames.every((f) => f.faceCount === 1)).toBe(true);
  });

  it('says no_frames when not one frame decodes, and not_a_video for a stream-less file', async () => {
    const whole = readFileSync(stillVideo(PHOTOS.astronaut, 'astronaut.webm', { seconds: 2, width: 512 }));
    // The header survives, the first picture is cut off.
    expect(await code(writeFixture('header-only.webm', whole.subarray(0, 4000)))).toBe('no_frames');
    expect(await code(writeFixture('header-cut.webm', whole.subarray(0, 200)))).toBe('not_a_video');
    const zero = writeFixture('zero.mp4', '');
    execFileSync(ffmpegPaths().ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=64x64:r=10',
      '-frames:v',
      '0',
      '-c:v',
      'libx264',
      zero,
    ]);
    expect(await code(zero)).toBe('not_a_video');
  });
});
