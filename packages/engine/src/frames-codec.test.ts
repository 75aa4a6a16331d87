import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  decodeFramesTable,
  encodeFrames,
  type FaceRow,
  FRAME_COLUMNS,
  FRAME_FLAGS,
  type FrameRow,
  framesTable,
  framesToCsv,
  framesToJson,
  type GazeRow,
} from './frames-codec.ts';
import { gaussian, prng } from './random.ts';
import { EXPRESSIONS, type Expression } from './types.ts';

/**
 * A respondent as the detector sees one: the face box and pose wander and jitter, the expression scores drift
 * (normalised to sum to 1) with frame-to-frame noise, gaze is noisy around a slowly moving target, a face is
 * sometimes lost.
 */
function syntheticRows(count: number, seed = 7): FrameRow[] {
  const rand = prng(seed);
  const walk = { x: 200, y: 120, yaw: 0, pitch: 0, gx: 800, gy: 450 };
  const level = Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'neutral' ? 2 : 0])) as Record<Expression, number>;
  return Array.from({ length: count }, (_, i) => {
    walk.x += gaussian(rand) * 0.8;
    walk.y += gaussian(rand) * 0.5;
    walk.yaw += gaussian(rand) * 0.4 - walk.yaw * 0.02;
    walk.pitch += gaussian(rand) * 0.3 - walk.pitch * 0.02;
    walk.gx = Math.min(1600, Math.max(0, walk.gx + gaussian(rand) * 15));
    walk.gy = Math.min(900, Math.max(0, walk.gy + gaussian(rand) * 10));
    for (const e of EXPRESSIONS) level[e] += gaussian(rand) * 0.05 - (level[e] - (e === 'neutral' ? 2 : 0)) * 0.01;
    const raw = EXPRESSIONS.map((e) => Math.exp(level[e] + gaussian(rand) * 0.1));
    const total = raw.reduce((a, b) => a + b, 0);
    const lost = rand() < 0.03;
    const gaze = lost ? null : { x: walk.gx + gaussian(rand) * 40, y: walk.gy + gaussian(rand) * 40 };
    return {
      time: 12.3 + i / 10,
      faceCount: lost ? 0 : 1,
      flags: lost ? ['no_face'] : [],
      bad: lost,
      face: lost
        ? null
        : {
            box: { x: walk.x + gaussian(rand), y: walk.y + gaussian(rand), width: 180 + gaussian(rand), height: 200 },
            score: 0.9 + rand() * 0.09,
            pose: { yaw: walk.yaw + gaussian(rand), pitch: walk.pitch + gaussian(rand), roll: gaussian(rand) * 2 },
            expressions: Object.fromEntries(EXPRESSIONS.map((e, k) => [e, (raw[k] as number) / total])) as Record<
              Expression,
              number
            >,
          },
      gaze,
      item: i < 50 ? -1 : Math.floor(i / 300),
      content: gaze && i >= 50 ? { x: gaze.x * 1.2, y: gaze.y * 1.2 } : null,
    };
  });
}

/** The gaze track of `syntheticRows` at 30 Hz: its gaze points and two noisy readings between each pair. */
function gazeTrackOf(rows: FrameRow[], seed = 11): GazeRow[] {
  const rand = prng(seed);
  return rows.flatMap((r) =>
    [0, 1, 2].map((k) => {
      const gaze = r.gaze && {
        x: r.gaze.x + (k ? gaussian(rand) * 20 : 0),
        y: r.gaze.y + (k ? gaussian(rand) * 20 : 0),
      };
      return {
        time: Math.fround(r.time + k / 30),
        gaze,
        item: r.item,
        content: gaze && r.content ? { x: gaze.x * 1.2, y: gaze.y * 1.2 } : null,
      };
    }),
  );
}

describe('frames codec', () => {
  it('round-trips every column (f32 precision) and the multi-face table', () => {
    const rows = syntheticRows(400);
    const faces: FaceRow[] = rows.flatMap((r, i) => (r.face ? [{ frame: i, track: i % 3, face: r.face }] : []));
    const bytes = encodeFrames(framesTable(rows, faces));
    const table = decodeFramesTable(bytes);
    expect(table.rows).toBe(400);
    rows.forEach((r, i) => {
      expect(table.columns.time[i]).toBeCloseTo(r.time, 4);
      expect(table.columns.face_count[i]).toBe(r.faceCount);
      expect(table.columns.flags[i]).toBe(r.bad ? FRAME_FLAGS.no_face | FRAME_FLAGS.bad : 0);
      expect(table.columns.item[i]).toBe(r.item);
      if (r.face) {
        expect(table.columns.box_x[i]).toBe(Math.fround(r.face.box.x));
        expect(table.columns.happy[i]).toBe(Math.fround(r.face.expressions.happy));
        expect(table.columns.yaw[i]).toBe(Math.fround(r.face.pose.yaw));
      } else {
        expect(table.columns.box_x[i]).toBeNaN();
        expect(table.columns.neutral[i]).toBeNaN();
      }
      if (r.gaze) expect(table.columns.gaze_x[i]).toBe(Math.fround(r.gaze.x));
      else expect(table.columns.gaze_x[i]).toBeNaN();
      if (r.content) expect(table.columns.content_y[i]).toBe(Math.fround(r.content.y));
      else expect(table.columns.content_y[i]).toBeNaN();
    });
    expect(table.faces?.rows).toBe(faces.length);
    expect(table.faces?.columns.track[5]).toBe(faces[5]?.track);
    expect(table.faces?.columns.frame[5]).toBe(faces[5]?.frame);
    expect(table.faces?.columns.fear[5]).toBe(Math.fround(faces[5]?.face.expressions.fear ?? 0));
    const faceCsv = framesToCsv(bytes, 'faces').trimEnd().split('\n');
    expect(faceCsv).toHaveLength(faces.length + 1);
    expect(faceCsv[0]?.startsWith('frame,track,box_x')).toBe(true);
    expect(framesToCsv(bytes).trimEnd().split('\n')).toHaveLength(401);
    expect(framesToJson(bytes).faces[5]).toMatchObject({ frame: faces[5]?.frame, track: faces[5]?.track });
  });

  it('round-trips the gaze track, and reads data written before it without one', () => {
    const rows = syntheticRows(100);
    const gaze = gazeTrackOf(rows);
    const bytes = encodeFrames(framesTable(rows, null, gaze));
    const table = decodeFramesTable(bytes);
    expect(table.rows).toBe(100);
    expect(table.gaze?.rows).toBe(300);
    gaze.forEach((g, i) => {
      expect(table.gaze?.columns.time[i]).toBe(Math.fround(g.time));
      expect(table.gaze?.columns.item[i]).toBe(g.item);
      if (g.gaze) expect(table.gaze?.columns.gaze_y[i]).toBe(Math.fround(g.gaze.y));
      else expect(table.gaze?.columns.gaze_y[i]).toBeNaN();
      if (g.content) expect(table.gaze?.columns.content_x[i]).toBe(Math.fround(g.content.x));
      else expect(table.gaze?.columns.content_x[i]).toBeNaN();
    });
    const csv = framesToCsv(bytes, 'gaze').trimEnd().split('\n');
    expect(csv[0]).toBe('time,gaze_x,gaze_y,item,content_x,content_y');
    expect(csv).toHaveLength(301);
    expect(framesToJson(bytes).gaze[4]).toMatchObject({ item: gaze[4]?.item });
    // No gaze track (a session without gaze, or one analysed before decision 049).
    const old = encodeFrames(framesTable(rows));
    expect(decodeFramesTable(old).gaze).toBeNull();
    expect(framesToCsv(old, 'gaze')).toBe('');
    expect(framesToJson(old).gaze).toEqual([]);
  });

  it('starts with a versioned JSON header naming the columns and their types', () => {
    const raw = new Uint8Array(gunzipSync(encodeFrames(framesTable(syntheticRows(3)))));
    expect(new TextDecoder().decode(raw.subarray(0, 4))).toBe('EMLF');
    const length = new DataView(raw.buffer, raw.byteOffset + 4, 4).getUint32(0, true);
    const header = JSON.parse(new TextDecoder().decode(raw.subarray(8, 8 + length)));
    expect(header).toMatchObject({ format: 'emolens-frames', version: 1, rows: 3, faces: null });
    expect(header.columns).toEqual(FRAME_COLUMNS.map(([n, t]) => [n, t]));
    expect(() => decodeFramesTable(new Uint8Array([1, 2, 3]))).toThrow(RangeError);
  });

  it('stays under 100 bytes a frame after gzip on a realistic respondent', () => {
    const rows = syntheticRows(3000);
    const bytes = encodeFrames(framesTable(rows));
    const perFrame = bytes.length / rows.length;
    // Measured: ~57 B/frame here (84 B of raw columns); a still test video gives ~16.
    expect(perFrame).toBeLessThanOrEqual(100);
  });

  it('stays under 100 bytes an analysed frame with the gaze track at 30 Hz (issue 31)', () => {
    const rows = syntheticRows(3000);
    const withGaze = encodeFrames(framesTable(rows, null, gazeTrackOf(rows))).length;
    const without = encodeFrames(framesTable(rows)).length;
    // Measured: the gaze track adds ~12 B a gaze sample (22 B of raw columns); ~31 B an analysed frame in all, ~94 B
    // a full frame with its three gaze samples.
    const perSample = (withGaze - without) / (3 * rows.length);
    expect(perSample).toBeGreaterThan(2);
    expect(perSample).toBeLessThanOrEqual(20);
    expect(withGaze / (3 * rows.length)).toBeLessThanOrEqual(100);
  });

  it('exports CSV and JSON with flags spelled out and missing values empty', () => {
    const rows = syntheticRows(60);
    const bytes = encodeFrames(framesTable(rows));
    const csv = framesToCsv(bytes).trimEnd().split('\n');
    expect(csv[0]).toBe(FRAME_COLUMNS.map(([n]) => n).join(','));
    expect(csv).toHaveLength(61);
    const lost = rows.findIndex((r) => r.face === null);
    expect(lost).toBeGreaterThanOrEqual(0);
    const cells = (csv[lost + 1] as string).split(',');
    expect(cells[2]).toBe('no_face bad');
    expect(cells[3]).toBe('');
    const json = framesToJson(bytes);
    expect(json.frames).toHaveLength(60);
    expect(json.frames[lost]).toMatchObject({ flags: ['no_face', 'bad'], box_x: null, item: -1 });
    expect(json.frames[0]?.time).toBeCloseTo(12.3, 4);
    expect(json.faces).toEqual([]);
    expect(framesToCsv(bytes, 'faces')).toBe('');
  });
});
