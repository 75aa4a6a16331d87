// The child process of `makeWebcamClips` (demo-clips.ts): takes one input, writes the clips, answers, exits.
import { type ClipsInput, writeWebcamClips } from './demo-clips.ts';

process.once('message', (input: ClipsInput) => {
  writeWebcamClips(input).then(
    () => process.send?.({}, () => process.exit(0)),
    (error: Error) => process.send?.({ error: error.stack ?? String(error) }, () => process.exit(1)),
  );
});
