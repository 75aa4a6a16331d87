import { describe, expect, it } from 'vitest';
import type { TruthFrame } from './measure.ts';
import { measurePose } from './measure.ts';
import type { MeasuredFrame } from './run-engine.ts';
import { median } from './score.ts';

/** A truth every 100 ms: yaw held at 0 for 1 s, then turned to `peak` and back. */
const sweep = (peak: number): TruthFrame[] =>
  Array.from({ length: 31 }, (_, i) => {
    const t = i * 100;
    const yaw = t <= 1000 ? 0 : peak * Math.sin(((t - 1000) / 2000) * Math.PI);
    return { tMs: t, head: { yaw, pitch: 0, roll: 0 } } as unknown as TruthFrame;
  });

const read = (truth: TruthFrame[], f: (yaw: number) => { yaw: number; pitch: number; roll: number }) =>
  truth.map((t) => ({ t: t.tMs, ...f(t.head.yaw) }) as unknown as MeasuredFrame);

describe('head pose against the truth', () => {
  it('scores the turn read from the phantom’s rest: an offset at rest is reported, not counted', () => {
    const truth = sweep(25);
    const pose = measurePose(
      read(truth, (yaw) => ({ yaw: yaw - 4, pitch: 2, roll: 1 })),
      truth,
    );
    expect(pose.yaw.rest).toBeCloseTo(-4);
    expect(pose.pitch.rest).toBeCloseTo(2);
    expect(pose.yaw.restFrames).toBeGreaterThanOrEqual(8);
    expect(pose.yaw.median).toBeCloseTo(0);
    expect(pose.yaw.r).toBeCloseTo(1);
    expect(pose.yaw.slope).toBeCloseTo(1);
  });

  it('a turn read short still counts in full', () => {
    const truth = sweep(20);
    const pose = measurePose(
      read(truth, (yaw) => ({ yaw: 0.8 * yaw + 3, pitch: 0, roll: 0 })),
      truth,
    );
    const turned = truth.filter((t) => Math.abs(t.head.yaw) >= 2).map((t) => 0.2 * Math.abs(t.head.yaw));
    expect(pose.yaw.rest).toBeCloseTo(3);
    expect(pose.yaw.n).toBe(turned.length);
    expect(pose.yaw.median).toBeCloseTo(median(turned));
    expect(pose.yaw.slope).toBeCloseTo(0.8);
    expect(pose.yaw.r).toBeCloseTo(1);
  });

  it('a turn read with the opposite sign has a negative gain; an axis never turned has none', () => {
    const truth = sweep(25);
    const pose = measurePose(
      read(truth, (yaw) => ({ yaw: -1.1 * yaw, pitch: 0, roll: 0 })),
      truth,
    );
    expect(pose.yaw.slope).toBeCloseTo(-1.1);
    expect(pose.pitch.n).toBe(0);
    expect(pose.pitch.slope).toBeNaN();
  });

  it('without a frame at rest nothing is taken off', () => {
    const truth = sweep(25).filter((t) => t.tMs > 1000);
    const pose = measurePose(
      read(truth, (yaw) => ({ yaw: yaw + 5, pitch: 0, roll: 0 })),
      truth,
    );
    expect(pose.yaw.restFrames).toBe(0);
    expect(pose.yaw.rest).toBeNaN();
    expect(pose.yaw.median).toBeCloseTo(5);
  });
});
