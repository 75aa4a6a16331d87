// The child process of `makeWebcamClips` (demo-clips.ts): takes one input, says each clip as it is written, exits.
import { type ChildMessage, type ClipsInput, writeWebcamClips } from './demo-clips.ts';

const say = (message: ChildMessage) => new Promise<void>((resolve) => process.send?.(message, () => resolve()));

process.once('message', (input: ClipsInput) => {
  writeWebcamClips(input, (clip) => say({ clip })).then(
    () => say({ done: true }).then(() => process.exit(0)),
    (error: Error) => say({ error: error.stack ?? String(error) }).then(() => process.exit(1)),
  );
});
