/**
 * `npm run phantom -- <options>`: phantom respondents' recordings with their truth files.
 *   --script <name>     a named script (repeatable; see --list)    --source <id>   face source (default astronaut)
 *   --file <script.json> a script file (the zod schema in script.ts) --set           the fixed validation set
 *   --seed <n>          seed (default 1)                            --fps 15|30     frame rate of named scripts
 *   --out <dir>         where to write (default .tmp/phantoms)      --list          scripts and face sources
 *   --png <i,j,…>       also write these frames as PNGs (to look at them)
 * `npm run phantom -- upload …`: phantoms taken through a real installation with their truth (upload/cli.ts).
 * `npm run phantom -- locate`: locates the face sources' meshes again with the engine and writes `meshes/` (locate.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generate } from './generate.ts';
import { buildRig, photoPose } from './rig.ts';
import { parseScript, type Script } from './script.ts';
import { namedScript, SCRIPTS, validationSet } from './scripts.ts';
import { allSourceIds, loadSource } from './source.ts';

if (process.argv[2] === 'upload') {
  const { uploadCommand } = await import('./upload/cli.ts');
  await uploadCommand(process.argv.slice(3)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
  process.exit(0);
}

if (process.argv[2] === 'locate') {
  const { locateAll } = await import('./locate.ts');
  await locateAll((line) => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    script: { type: 'string', multiple: true },
    source: { type: 'string', default: 'astronaut' },
    file: { type: 'string', multiple: true },
    set: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    fps: { type: 'string', default: '30' },
    out: { type: 'string', default: '.tmp/phantoms' },
    list: { type: 'boolean', default: false },
    png: { type: 'string', default: '' },
  },
});

async function main(): Promise<void> {
  if (values.list) {
    for (const [name, { description }] of Object.entries(SCRIPTS))
      process.stdout.write(`${name.padEnd(16)} ${description}\n`);
    process.stdout.write(
      "\nface sources (the photo's own yaw/pitch/roll on the face's own axes, the engine's convention: yaw + to the image's left, pitch + down, roll + clockwise):\n",
    );
    for (const id of allSourceIds()) {
      const pose = photoPose(buildRig(await loadSource(id)));
      const deg = (v: number) => `${v.toFixed(0)}°`;
      process.stdout.write(`${id.padEnd(12)} ${deg(pose.yaw)} / ${deg(pose.pitch)} / ${deg(pose.roll)}\n`);
    }
    return;
  }
  const seed = Number(values.seed);
  const fps = Number(values.fps);
  if (fps !== 15 && fps !== 30) throw new Error('--fps is 15 or 30');
  const scripts: Script[] = [
    ...(values.set ? validationSet(seed) : []),
    ...(values.script ?? []).map((name) => namedScript(name, values.source, seed, { fps })),
    ...(values.file ?? []).map((f) => parseScript(JSON.parse(readFileSync(f, 'utf8')))),
  ];
  if (!scripts.length)
    throw new Error('nothing to make: give --script <name>, --file <script.json> or --set (--list shows the scripts)');
  for (const script of scripts) {
    const made = await generate(script, values.out, { snapshots: values.png.split(',').filter(Boolean).map(Number) });
    const seconds = made.frames / script.fps;
    process.stdout.write(
      `${made.video}: ${made.frames} frames (${seconds.toFixed(1)} s at ${script.fps} fps, ${script.frame.width}×${script.frame.height}) in ${(made.elapsedMs / 1000).toFixed(1)} s (drawing ${(made.drawMs / made.frames).toFixed(0)} ms a frame); truth ${made.truth}\n`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
