import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ortWeb from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { PHOTOS, photoFrame, requirePhotos, SAMPLES } from '../../test/fixtures.ts';
import { readFrame } from '../face-engine.ts';
import { createOnnxEngine, ONNX_MODELS_DIR } from '../node/onnx/model.ts';
import { loadOnnxEngine } from '../onnx/engine.ts';
import type { FaceData, FrameData } from '../types.ts';
import { rgbaToRgb } from './onnx-engine.ts';

/**
 * The browser's engine is the server's pipeline on onnxruntime-web's wasm (decision 060). onnxruntime-web runs in
 * Node too, on the same wasm the page loads, so the two runtimes are compared here on real faces without a browser
 * (bench:browser-engine does it in Chromium). Measured: 2.7e-4 px on the mesh, 1.4e-4° of pose, 1.2e-8 of an
 * expression score over 80 frames; the limits leave room for float32 rounding, not for a different algorithm.
 */
const LANDMARK_PX = 0.01;
const POSE_DEGREES = 0.01;
const EXPRESSION = 1e-4;

function largestDifference(a: FaceData, b: FaceData) {
  let landmarks = 0;
  for (const [i, p] of b.landmarks.entries()) {
    const q = a.landmarks[i] as [number, number, number];
    landmarks = Math.max(landmarks, Math.hypot(q[0] - p[0], q[1] - p[1]));
  }
  const pose = Math.max(...(['yaw', 'pitch', 'roll'] as const).map((k) => Math.abs(a.pose[k] - b.pose[k])));
  const expressions = Math.max(
    ...Object.entries(b.expressions).map(([k, v]) =>
      Math.abs((a.expressions[k as keyof FaceData['expressions']] ?? Number.NaN) - v),
    ),
  );
  return { landmarks, pose, expressions };
}

describe('the face engine on onnxruntime-web (the browser) against onnxruntime-node (the server)', () => {
  it('reads the same faces, landmarks, pose and expressions, frame by frame', async () => {
    requirePhotos();
    ortWeb.env.wasm.numThreads = 1;
    const web = await loadOnnxEngine({
      name: 'onnxruntime-web',
      ort: ortWeb,
      source: (name) => join(ONNX_MODELS_DIR, `${name}.onnx`),
      modelBytes: (name) => readFile(join(ONNX_MODELS_DIR, `${name}.onnx`)),
      sessionOptions: { executionProviders: ['wasm'] },
    });
    const server = await createOnnxEngine();
    expect(web.runtime).toBe('onnxruntime-web');
    const options = { multiFace: true, keepLandmarks: true };
    // Each picture three times: the detector's frame, then two tracked from the previous mesh.
    const pictures = [photoFrame(PHOTOS.astronaut, 640), photoFrame(SAMPLES[3] as string, 640)];
    let index = 0;
    let faces = 0;
    for (const picture of pictures) {
      for (let k = 0; k < 3; k++, index++) {
        const at = { index, time: index / 10 };
        const a: FrameData = (await readFrame(web, picture, at, options)).frame;
        const b: FrameData = (await readFrame(server, picture, at, options)).frame;
        expect(a.faceCount, `frame ${index}`).toBe(b.faceCount);
        expect(a.flags).toEqual(b.flags);
        for (const [i, face] of (b.faces ?? []).entries()) {
          const d = largestDifference(a.faces?.[i] as FaceData, face);
          expect(d.landmarks, `frame ${index} face ${i}`).toBeLessThan(LANDMARK_PX);
          expect(d.pose, `frame ${index} face ${i}`).toBeLessThan(POSE_DEGREES);
          expect(d.expressions, `frame ${index} face ${i}`).toBeLessThan(EXPRESSION);
          faces++;
        }
      }
    }
    expect(faces).toBeGreaterThanOrEqual(6);
  }, 120_000);
});

describe('rgbaToRgb', () => {
  it("drops the alpha of a canvas's pixels, into the buffer given when it fits", () => {
    const rgba = new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 0]);
    const out = new Uint8Array(6);
    expect(rgbaToRgb(rgba, 2, 1, out)).toBe(out);
    expect([...out]).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...rgbaToRgb(rgba, 2, 1, new Uint8Array(3))]).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
