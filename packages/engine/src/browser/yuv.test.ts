import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { faceApiSample, PHOTOS, rotatedPhotoVideo, stillVideo } from '../../test/fixtures.ts';
import { decodeFrames, ffmpegPaths, probeVideo } from '../node/ffmpeg.ts';
import { yuv420ToRgb } from './yuv.ts';

/** The file's frames at `fps` and its own size, as yuv420p planes, one buffer each (what a camera's I420 frame holds). */
function yuvFrames(file: string, width: number, height: number, fps: number): Uint8Array[] {
  const bytes = execFileSync(
    ffmpegPaths().ffmpeg,
    ['-v', 'error', '-i', file, '-an', '-vf', `fps=fps=${fps}`, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1'],
    { maxBuffer: 1 << 30 },
  );
  const size = (width * height * 3) / 2;
  return Array.from(
    { length: bytes.length / size },
    (_, i) => new Uint8Array(bytes.subarray(i * size, (i + 1) * size)),
  );
}

const i420 = (data: Uint8Array, width: number, height: number) => ({
  format: 'I420' as const,
  data,
  width,
  height,
  layout: [
    { offset: 0, stride: width },
    { offset: width * height, stride: width / 2 },
    { offset: (width * height * 5) / 4, stride: width / 2 },
  ],
});

describe("a camera frame's planes into RGB", () => {
  // Recordings as the server gets them (VP8), at the sizes the analysis reads: 640 wide at 4:3 and 16:9, smaller, and a
  // width whose chroma rows are not a multiple of 8 pixels.
  const cases = [
    stillVideo(PHOTOS.astronaut, 'yuv-astronaut-640.webm', { seconds: 0.5 }),
    rotatedPhotoVideo(faceApiSample(3), 'yuv-sample3-640.webm', 8, 640),
    stillVideo(faceApiSample(6), 'yuv-sample6-426.webm', { seconds: 0.5, width: 426 }),
    stillVideo(faceApiSample(1), 'yuv-sample1-320.webm', { seconds: 0.5, width: 320 }),
  ];

  it('gives the very bytes the server decodes the same recording to', async () => {
    for (const file of cases) {
      const server: { data: Uint8Array; width: number; height: number }[] = [];
      const { width, height } = await probeVideo(file);
      for await (const frame of decodeFrames(file, { width, height, fps: 10 }))
        server.push({ data: frame.data.slice(), width: frame.width, height: frame.height });
      const planes = yuvFrames(file, width, height, 10);
      expect(planes.length, file).toBe(server.length);
      expect(server.length).toBeGreaterThan(0);
      for (const [i, frame] of server.entries()) {
        const rgb = yuv420ToRgb(i420(planes[i] as Uint8Array, width, height));
        let differing = 0;
        for (let j = 0; j < rgb.length; j++) if (rgb[j] !== frame.data[j]) differing++;
        expect(differing, `${file} frame ${i} (${width}x${height}): bytes differing from the server's`).toBe(0);
      }
    }
  });

  it('reads NV12 (U and V interleaved) and padded rows as I420', async () => {
    const file = rotatedPhotoVideo(PHOTOS.astronaut, 'yuv-astronaut-rotated-640.webm', 5, 640);
    const { width, height } = await probeVideo(file);
    const [frame] = yuvFrames(file, width, height, 10);
    const planar = frame as Uint8Array;
    const expected = yuv420ToRgb(i420(planar, width, height));
    // NV12 with each row padded to a stride of 704.
    const stride = 704;
    const nv12 = new Uint8Array(stride * height * 1.5);
    for (let y = 0; y < height; y++) nv12.set(planar.subarray(y * width, (y + 1) * width), y * stride);
    const u = width * height;
    const v = u + (width * height) / 4;
    for (let y = 0; y < height / 2; y++)
      for (let x = 0; x < width / 2; x++) {
        nv12[stride * height + y * stride + 2 * x] = planar[u + y * (width / 2) + x] as number;
        nv12[stride * height + y * stride + 2 * x + 1] = planar[v + y * (width / 2) + x] as number;
      }
    const fromNv12 = yuv420ToRgb({
      format: 'NV12',
      data: nv12,
      width,
      height,
      layout: [
        { offset: 0, stride },
        { offset: stride * height, stride },
      ],
    });
    expect(Buffer.from(fromNv12).equals(Buffer.from(expected))).toBe(true);
    // Not a constant: the picture's colours came through.
    expect(new Set(expected).size).toBeGreaterThan(200);
    expect(() => yuv420ToRgb(i420(planar, 639, 480))).toThrow(/even size/);
  });
});
