import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ortWeb from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { PHOTOS, photoFrame, requirePhotos, SAMPLES } from '../../test/fixtures.ts';
import { readFrame } from '../face-engine.ts';
import { createOnnxEngine, ONNX_MODELS_DIR } from '../node/onnx/model.ts';
import { loadOnnxEngine } from '../onnx/engine.ts';
import { MODEL_INPUTS, modelFile } from '../onnx/model.ts';
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
      source: (name) => join(ONNX_MODELS_DIR, modelFile(name, 'onnxruntime-web')),
      modelBytes: (name) => readFile(join(ONNX_MODELS_DIR, modelFile(name, 'onnxruntime-web'))),
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

describe("the browser's forms of the mesh and iris models (decision 071)", () => {
  it("give the server files' outputs bit for bit on onnxruntime-web, PReLU as one operation", async () => {
    requirePhotos();
    ortWeb.env.wasm.numThreads = 1;
    const photo = photoFrame(PHOTOS.astronaut, 640);
    for (const name of ['facemesh', 'iris'] as const) {
      const [size, channels] = MODEL_INPUTS[name];
      const web = modelFile(name, 'onnxruntime-web');
      expect(web).toBe(`${name}.web.onnx`);
      const open = async (file: string) =>
        ortWeb.InferenceSession.create(await readFile(join(ONNX_MODELS_DIR, file)), { executionProviders: ['wasm'] });
      const [server, browser] = await Promise.all([open(`${name}.onnx`), open(web)]);
      // Two crops of the photo's face region, as 0…1 RGB.
      const data = new Float32Array(2 * size * size * channels);
      for (let b = 0; b < 2; b++) {
        for (let y = 0; y < size; y++) {
          for (let x = 0; x < size; x++) {
            const from = 3 * ((120 + 40 * b + y) * photo.width + 200 + x);
            for (let c = 0; c < channels; c++) {
              data[((b * size + y) * size + x) * channels + c] = (photo.data[from + c] as number) / 255;
            }
          }
        }
      }
      const input = () => ({
        [server.inputNames[0] as string]: new ortWeb.Tensor('float32', data, [2, size, size, channels]),
      });
      const [a, b] = await Promise.all([server.run(input()), browser.run(input())]);
      expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
      for (const key of Object.keys(a)) {
        const x = a[key]?.data as Float32Array;
        const y = b[key]?.data as Float32Array;
        expect(y.length, `${name} ${key}`).toBe(x.length);
        let differing = 0;
        for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) differing++;
        expect(differing, `${name} ${key}`).toBe(0);
      }
    }
  }, 60_000);
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
