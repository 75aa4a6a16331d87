import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPaths } from '@emolens/engine';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/registry.ts';
import { type Client, createTestAppWithFiles, loggedIn, type TestApp } from '../../test/harness.ts';
import { insertCompletedManOf30, videoResearch } from '../../test/report-rows.ts';

/**
 * docs/api.md cannot drift from the API (issue 28, item 5): every curl request of its examples is run as written,
 * in order, against a test app over HTTP with a real token, and answers with the status and content type the
 * document writes under it (`# → 201 application/json`). Between two requests the test runs the jobs they queued
 * (a report's build, a file's making), as the server's worker would.
 */
interface Documented {
  command: string;
  status: number;
  type: string;
}

/** The document's requests: each `curl` command of its `sh` blocks (all its lines) and the answer under it. */
export function documentedRequests(markdown: string): Documented[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const requests: Documented[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]?.startsWith('curl ')) continue;
      // A command runs on to the line before its answer (a quoted body may span lines without a backslash).
      let command = lines[i] as string;
      while (i + 1 < lines.length && !/^(#|\s*$)/.test(lines[i + 1] as string)) command += `\n${lines[++i]}`;
      const answer = /^# → (\d{3}) (.+)$/.exec(lines[i + 1] ?? '');
      if (!answer) throw new Error(`docs/api.md: no "# → status type" under\n${command}`);
      requests.push({ command, status: Number(answer[1]), type: answer[2] as string });
    }
  }
  return requests;
}

let t: TestApp & { dir: string };
let alice: Client;
let work: string;
beforeAll(async () => {
  t = await createTestAppWithFiles('api-doc');
  await t.app.ctx.queue.start({ work: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  work = await mkdtemp(join(tmpdir(), 'emolens-api-doc-'));
});
afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A video research (a real stored 3-second video) with three processed men of 30, looking at the middle. */
async function research(): Promise<string> {
  ({ alice } = await loggedIn(t.app, 'alice'));
  const { researchId, linkId, storageKey } = await videoResearch(t.app, alice, 'alice', {
    width: 320,
    height: 160,
    seconds: 3,
  });
  const file = join(work, 'content.mp4');
  execFileSync(ffmpegPaths().ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x160:rate=25', '-t', '3'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', file],
  ]);
  const bytes = await readFile(file);
  await t.app.ctx.deps.storage.put(storageKey, bytes, bytes.length, 'video/mp4');
  for (const engagement of [
    [0.2, 0.4, 0.6],
    [0.4, 0.4, 0.4],
    [0.6, 0.5, 0.1],
  ]) {
    const gaze = Array.from({ length: 30 }, () => ({ x: 160, y: 80 }));
    await insertCompletedManOf30(t.app, { linkId, researchId }, { engagement, gaze });
  }
  return researchId;
}

const ran = new Set<string>();
/** Runs the report jobs queued since the last call, here, as a worker would. */
async function runQueuedJobs() {
  const rows = await sql<{ id: string; name: string; data: unknown }>`
    select id, name, data from pgboss.job where state = 'created' and name in ('build-report', 'make-report-file')
    order by created_on`.execute(t.app.ctx.database.db);
  for (const row of rows.rows) {
    if (ran.has(row.id)) continue;
    ran.add(row.id);
    const job = JOBS.find((j) => j.name === row.name);
    if (job) await t.app.ctx.queue.run(job, row.data);
  }
}

describe('docs/api.md', { timeout: 300_000 }, () => {
  it('answers each documented request with the status and content type written under it, with a token', async () => {
    const doc = await readFile(new URL('../../../../../docs/api.md', import.meta.url), 'utf8');
    const requests = documentedRequests(doc);
    expect(requests.length).toBeGreaterThanOrEqual(10);
    const researchId = await research();
    const token = (
      await alice.request('POST', '/api/users/api-access/access-api-token/', { body: { scope: 'report_builder' } })
    ).json().token;
    const { port } = t.app.server.address() as AddressInfo;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      EMOLENS_URL: `http://127.0.0.1:${port}`,
      EMOLENS_TOKEN: token,
      RESEARCH: researchId,
      REPORT: '',
    };
    const downloads: string[] = [];
    for (const request of requests) {
      // As written, with curl's own account of the answer after the body.
      const script = `${request.command} -w '\\n@@@%{http_code} %{content_type}'`;
      const { stdout } = await promisify(execFile)('bash', ['-eu', '-c', script], {
        cwd: work,
        env,
        maxBuffer: 64 * 1024 * 1024,
      }).catch((err: { stdout?: string; stderr?: string }) => {
        throw new Error(`${request.command}\nfailed: ${err.stderr ?? ''}${err.stdout ?? ''}`);
      });
      const at = stdout.lastIndexOf('@@@');
      const body = stdout.slice(0, at).trim();
      const [status, ...type] = stdout.slice(at + 3).split(' ');
      const answered = type.join(' ');
      expect(Number(status), `${request.command}\n${body.slice(0, 500)}`).toBe(request.status);
      // The documented type, with its parameters where the document writes them.
      expect(request.type.includes(';') ? answered : answered.split(';')[0], request.command).toBe(request.type);
      // The report the document goes on with is the one it created.
      if (request.status === 201 && /\/reports\/"$/.test(request.command)) env.REPORT = JSON.parse(body).id;
      const saved = / -o (\S+) /.exec(request.command)?.[1];
      if (saved) downloads.push(saved);
      await runQueuedJobs();
    }
    // The downloads are the files they say: an XLSX, a PPTX (ZIPs), an MP4.
    expect(downloads).toEqual(['respondents.xlsx', 'report.pptx', 'report.mp4']);
    for (const name of downloads) {
      const bytes = await readFile(join(work, name));
      if (name.endsWith('.mp4')) expect(bytes.subarray(4, 8).toString()).toBe('ftyp');
      else expect(bytes.subarray(0, 2).toString()).toBe('PK');
    }
    // The report built is the one documented: men of 25 to 45, by sex, per 2 s.
    const report = (await alice.request('GET', `/api/cabinet/reports/${env.REPORT}/`)).json();
    expect(report).toMatchObject({ name: 'Men 25 to 45', step: 2, status: 'done', snapshot: { respondents: 3 } });
  });

  it('reads the requests and their answers from the markdown', () => {
    const requests = documentedRequests(
      [
        '```sh',
        '# A comment.',
        'curl -sf -X POST \\',
        '  -d \'{"a": 1}\' "$EMOLENS_URL/x/"',
        '# → 201 application/json',
        '```',
      ].join('\n'),
    );
    expect(requests).toEqual([
      { command: 'curl -sf -X POST \\\n  -d \'{"a": 1}\' "$EMOLENS_URL/x/"', status: 201, type: 'application/json' },
    ]);
    expect(() => documentedRequests('```sh\ncurl -sf "$EMOLENS_URL/x/"\n```')).toThrow(/no "# → status type"/);
  });
});
