import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { type GraphModel, loadGraphModel } from '@tensorflow/tfjs-converter';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { PHOTOS, photoFrame, requirePhotos, SAMPLES } from '../../../test/fixtures.ts';
import { expressionCrop } from '../../onnx/geometry.ts';
import { alignedGreyCrop, cropAndResize, greyPatch, resizeBilinear } from '../../onnx/image.ts';
import { HUMAN_MODELS_DIR } from '../human-tfjs.ts';
import { createOnnxEngine, ONNX_MODELS_DIR } from './model.ts';

/**
 * Each converted model (packages/engine/models/*.onnx) against Human's tfjs model it came from, on
 * inputs cut from real faces the way the engine cuts them: every output within 1e-3.
 */
async function tfjsModel(name: string): Promise<GraphModel> {
  const spec = JSON.parse(readFileSync(join(HUMAN_MODELS_DIR, `${name}.json`), 'utf8'));
  const weightSpecs = spec.weightsManifest.flatMap((g: { weights: unknown[] }) => g.weights);
  const shards = spec.weightsManifest.flatMap((g: { paths: string[] }) =>
    g.paths.map((p) => readFileSync(join(HUMAN_MODELS_DIR, p))),
  );
  const weights = Buffer.concat(shards);
  const weightData = weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength);
  return loadGraphModel(tf.io.fromMemory({ modelTopology: spec.modelTopology, weightSpecs, weightData }));
}

interface Inputs {
  blazeface: Float32Array[];
  facemesh: Float32Array[];
  iris: Float32Array[];
  emotion: Float32Array[];
}
const SHAPES = { blazeface: [256, 3], facemesh: [192, 3], iris: [64, 3], emotion: [64, 1] } as const;

const inputs: Inputs = { blazeface: [], facemesh: [], iris: [], emotion: [] };
beforeAll(async () => {
  requirePhotos();
  await tf.setBackend('cpu');
  const engine = await createOnnxEngine({ skipFrames: 0 });
  for (const photo of [PHOTOS.astronaut, SAMPLES[0] as string, SAMPLES[2] as string]) {
    const frame = photoFrame(photo, 640);
    const det = new Float32Array(256 * 256 * 3);
    resizeBilinear(frame, 256, 256, det, 1 / 127.5, -1);
    inputs.blazeface.push(det);
    engine.reset();
    for (const face of await engine.detect(frame)) {
      const [x, y, w, h] = face.box;
      const box = [y / frame.height, x / frame.width, (y + h) / frame.height, (x + w) / frame.width] as const;
      const crop = new Float32Array(192 * 192 * 3);
      cropAndResize(frame, [...box], 192, crop, { scale: 1 / 255 });
      inputs.facemesh.push(crop);
      for (const [a, b] of [
        [33, 133],
        [263, 362],
      ] as const) {
        const p = face.mesh[a] as number[];
        const q = face.mesh[b] as number[];
        const cx = ((p[0] as number) + (q[0] as number)) / 2;
        const cy = ((p[1] as number) + (q[1] as number)) / 2;
        const half = Math.abs((p[0] as number) - (q[0] as number)) * 1.15;
        const eye = new Float32Array(64 * 64 * 3);
        cropAndResize(
          frame,
          [
            (cy - half) / frame.height,
            (cx - half) / frame.width,
            (cy + half) / frame.height,
            (cx + half) / frame.width,
          ],
          64,
          eye,
          { scale: 1 / 255 },
        );
        inputs.iris.push(eye);
      }
      const c = expressionCrop(face.mesh as [number, number, number][]);
      const grey = new Float32Array(64 * 64);
      alignedGreyCrop(greyPatch(frame, c.x, c.y, c.side, c.side / 128), c, c.side, c.radians, 64, grey);
      inputs.emotion.push(grey);
    }
  }
}, 120_000);

describe('converted models give the tfjs models’ outputs on real faces', () => {
  for (const name of ['blazeface', 'facemesh', 'iris', 'emotion'] as const) {
    it(`${name}: every output within 1e-3`, async () => {
      const reference = await tfjsModel(name);
      const session = await ort.InferenceSession.create(join(ONNX_MODELS_DIR, `${name}.onnx`), {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
      });
      const [size, channels] = SHAPES[name];
      expect(inputs[name].length).toBeGreaterThanOrEqual(3);
      let worst = 0;
      for (const data of inputs[name]) {
        const expected = tf.tidy(() => {
          const out = reference.execute(tf.tensor4d(data, [1, size, size, channels]));
          return (Array.isArray(out) ? out : [out]).map((t) => ({ shape: t.shape, data: t.dataSync().slice() }));
        });
        const got = await session.run({
          [session.inputNames[0] as string]: new ort.Tensor('float32', data, [1, size, size, channels]),
        });
        const outputs = Object.values(got);
        expect(outputs).toHaveLength(expected.length);
        for (const e of expected) {
          // Outputs match by shape (tfjs and ONNX name them alike but order them differently).
          const o = outputs.find((t) => t.dims.join() === e.shape.join());
          expect(o, `output of shape ${e.shape}`).toBeDefined();
          const values = o?.data as Float32Array;
          for (let i = 0; i < e.data.length; i++)
            worst = Math.max(worst, Math.abs((values[i] as number) - (e.data[i] as number)));
        }
      }
      // Measured 2026-11: blazeface 4.9e-4 (its raw logits reach tens), facemesh 1.8e-4, iris 5.3e-5, emotion 5.7e-7.
      expect(worst).toBeLessThan(1e-3);
      await session.release();
    }, 120_000);
  }
});
