/**
 * Locating the face sources' meshes with the engine (`npm run phantom -- locate`): what `meshes/` holds, made again.
 * Run it when a photo, the face mesh model or the engine's landmark code changes; then regenerate the validation
 * documents, whose phantoms are drawn on these meshes (decision 085).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createHuman, ENGINE_VERSION, type FaceEngine } from '@emolens/engine';
import type { P3 } from './geometry.ts';
import type { Rgb } from './image.ts';
import { fileSha256, meshFile, PICTURES, PictureMeshes, pictureOf } from './source.ts';

/** The face mesh model's input side: its z comes in these units for the face's box, x and y are mapped to pixels. */
const MESH_MODEL_SIZE = 192;

let engine: Promise<FaceEngine> | null = null;

/** The engine's faces on a picture, left to right, as 478 landmarks each in the picture's pixels (one call at a time). */
async function facesOf(image: Rgb): Promise<P3[][]> {
  engine ??= createHuman({ skipFrames: 0 });
  const e = await engine;
  e.reset();
  const faces = (await e.detect(image)).filter((f) => f.mesh.length >= 478).sort((a, b) => a.box[0] - b.box[0]);
  return faces.map((found) => {
    // The mesh model's z is in its input's units for the face's box (the box's width in pixels spans 192 of them).
    const zScale = Math.max(found.box[2], found.box[3]) / MESH_MODEL_SIZE;
    return found.mesh.map((p): P3 => [p[0] + 0.5, p[1] + 0.5, (p[2] ?? 0) * zScale]);
  });
}

/** A picture's faces located now, on this machine. */
export async function locatePicture(photo: string): Promise<PictureMeshes> {
  const { path, file, image } = pictureOf(photo);
  const picture = path.split('/').at(-1) as string;
  return { picture, sha256: fileSha256(file), engine: ENGINE_VERSION, faces: await facesOf(image) };
}

/** The largest distance (px, x and y) between two sets of faces of one picture; Infinity when the counts differ. */
export function meshDistance(a: P3[][], b: P3[][]): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let worst = 0;
  for (const [f, face] of a.entries())
    for (const [i, p] of face.entries()) {
      const q = b[f]?.[i] as P3;
      worst = Math.max(worst, Math.abs(p[0] - q[0]), Math.abs(p[1] - q[1]));
    }
  return worst;
}

/** Locates every picture's faces again and writes `meshes/`; reports how far each moved from what was shipped. */
export async function locateAll(log: (line: string) => void): Promise<void> {
  for (const photo of PICTURES) {
    const located = await locatePicture(photo);
    const file = meshFile(photo);
    const before = existsSync(file) ? PictureMeshes.parse(JSON.parse(readFileSync(file, 'utf8'))) : null;
    const moved = !before
      ? 'new'
      : before.sha256 !== located.sha256
        ? 'the picture changed'
        : `moved ${meshDistance(before.faces, located.faces).toExponential(1)} px at most`;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, formatMeshes(located));
    log(`${photo}: ${located.faces.length} faces (${moved}) → ${file}`);
  }
}

/** One landmark a line, numbers as JavaScript writes them (they read back to the same doubles). */
function formatMeshes(m: PictureMeshes): string {
  const faces = m.faces.map((face) => `    [\n${face.map((p) => `      [${p.join(', ')}]`).join(',\n')}\n    ]`);
  const header = { picture: m.picture, sha256: m.sha256, engine: m.engine };
  const fields = Object.entries(header).map(([k, v]) => `  "${k}": ${JSON.stringify(v)},\n`);
  return `{\n${fields.join('')}  "faces": [\n${faces.join(',\n')}\n  ]\n}\n`;
}
