/**
 * `npm run phantom -- upload`: the validation's phantoms taken through a real installation (decision 035), each as a
 * respondent through a quota link, with its truth attached to its session; the research's statistic page then shows
 * the engine's error against the truth per respondent.
 *   --url <http://host:port>   the installation             --link <token>    a quota link of a contentless research
 *   --user <username>          the link's project's owner    (password: EMOLENS_PASSWORD, or --password)
 *   --full                     the full validation set (default: the short set CI runs)
 *   --only <name,…>            only these scripts of the set (gaze-grid-15fps, smile-moderate, neutral, …)
 *   --source <id>              face source (default astronaut)        --dir <dir>   where recordings are made
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generate } from '../generate.ts';
import type { TruthFile } from '../truth.ts';
import { validationCases } from '../validation/cases.ts';
import { fetchHttp } from './http.ts';
import { uploadPhantom } from './upload.ts';

export async function uploadCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      link: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      full: { type: 'boolean', default: false },
      only: { type: 'string' },
      source: { type: 'string', default: 'astronaut' },
      dir: { type: 'string', default: '.tmp/phantoms' },
    },
  });
  const password = values.password ?? process.env.EMOLENS_PASSWORD;
  if (!values.url || !values.link || !values.user || !password)
    throw new Error('give --url, --link and --user, and the password in EMOLENS_PASSWORD (or --password)');
  const only = values.only?.split(',').filter(Boolean);
  const cases = validationCases({ short: !values.full, sources: [values.source] }).filter(
    (c) => !only || only.includes(c.script.name),
  );
  if (!cases.length) throw new Error('no phantom of the set has those names');
  const http = fetchHttp(values.url);
  for (const [i, c] of cases.entries()) {
    process.stdout.write(`[${i + 1}/${cases.length}] ${c.script.source} ${c.script.name}: making … `);
    const made = await generate(c.script, values.dir);
    process.stdout.write('uploading … ');
    const truth = JSON.parse(readFileSync(made.truth, 'utf8')) as TruthFile;
    const up = await uploadPhantom(http, {
      video: readFileSync(made.video),
      truth,
      plan: c.plan,
      link: values.link,
      user: { username: values.user, password },
    });
    process.stdout.write(
      `session ${up.sessionId} (${up.end.outcome}, ${up.chunks} chunks, ${up.events} events, truth of ${up.truth.frames} frames)\n`,
    );
  }
  process.stdout.write(
    `\nThe research's statistic page (/cabinet/campaign/<id>/statistic) shows each one's error once processed.\n`,
  );
}
