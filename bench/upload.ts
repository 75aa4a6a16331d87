// npm run bench:upload — a 2 GiB resumable upload (tus) to a real server in a child process on a random
// local port: generated on the fly (never held in memory), sent in chunks with tus-js-client, aborted once
// in the middle and resumed. Prints throughput, the server's peak RSS and whether the stored bytes are
// intact. BENCH_UPLOAD_MB sets another size; BENCH_STORAGE=s3 stores into an S3 server (s3rver, started here)
// through the production S3 path instead of the local directory. Prints figures; asserts nothing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { CSRF_COOKIE, CSRF_HEADER, MEDIA_ID_HEADER } from '@emolens/contracts';
import { ffmpegPaths } from '@emolens/engine';
import * as tus from 'tus-js-client';
import { S3Storage } from '../apps/server/src/modules/media/storage.ts';
import { startS3Server } from '../apps/server/src/test/s3-server.ts';

const PASSWORD = 'benchmark password';
const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Server mode: `upload.ts --server <dataDir>` runs the real app on PGlite and prints its port.
// ---------------------------------------------------------------------------------------------
async function runServer(dataDir: string): Promise<void> {
  const { buildApp, databaseTarget } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const { createUser } = await import('../apps/server/src/modules/users/users.service.ts');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_DIST: join(dataDir, 'no-web'),
    // BENCH_STORAGE=s3: the S3 server's settings, passed down by main().
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('S3_'))),
  });
  const database = await openDatabase(databaseTarget(config));
  await migrateToLatest(database.db);
  const app = await buildApp(config, { database });
  await createUser(app.ctx.deps.users, { username: 'bench', password: PASSWORD, role: 'customer' });
  await app.ctx.queue.start({ work: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.on('SIGTERM', () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The file: a real video (the upload is checked by decoding), about the size asked for: ffmpeg's test
// pattern at 1280×720 as uncompressed frames in Matroska, written to disk and read from there range by
// range (a resumed upload re-reads exactly what it needs), never held in memory.
// ---------------------------------------------------------------------------------------------
function makeVideo(dir: string, approxBytes: number): { path: string; size: number } {
  const frameBytes = 1280 * 720 * 1.5;
  const path = join(dir, 'bench.mkv');
  execFileSync(ffmpegPaths().ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25'],
    ...['-frames:v', String(Math.ceil(approxBytes / frameBytes)), '-c:v', 'rawvideo', '-pix_fmt', 'yuv420p', path],
  ]);
  return { path, size: statSync(path).size };
}

const bytes = (path: string, start: number, end: number): Readable =>
  createReadStream(path, { start, end: end - 1, highWaterMark: MiB });

const fileSource = (path: string, size: number) => ({
  openFile: async () => ({
    size,
    slice: async (start: number, end: number) => {
      const stop = Math.min(end, size);
      // tus-js-client reads the length of a streamed slice from its `size`.
      const value = Object.assign(bytes(path, start, stop), { size: stop - start });
      return { value, done: stop >= size };
    },
    close() {},
  }),
});

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Client mode.
// ---------------------------------------------------------------------------------------------
function startServer(dataDir: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--server', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, port: JSON.parse(line).port });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function procStatus(pid: number): Promise<{ rss: number; hwm: number }> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

class Cookies {
  private readonly jar = new Map<string, string>();
  take(response: Response): void {
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) this.jar.set(name.trim(), value.join('='));
    }
  }
  get(name: string) {
    return this.jar.get(name) ?? '';
  }
  header() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

async function main(): Promise<void> {
  const chunkSize = 64 * MiB;
  const dataDir = await mkdtemp(join(tmpdir(), 'emolens-bench-upload-'));
  const { path: video, size } = makeVideo(dataDir, Number(process.env.BENCH_UPLOAD_MB ?? 2048) * MiB);
  const s3 = process.env.BENCH_STORAGE === 's3' ? await startS3Server() : undefined;
  const { child, port } = await startServer(dataDir, s3?.env ?? {});
  const pid = child.pid ?? 0;
  const base = `http://127.0.0.1:${port}`;
  try {
    const cookies = new Cookies();
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          cookie: cookies.header(),
          [CSRF_HEADER]: cookies.get(CSRF_COOKIE),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      cookies.take(res);
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? undefined : res.json();
    };
    await call('GET', '/api/auth/csrf/');
    await call('POST', '/api/auth/login/', { username: 'bench', password: PASSWORD });
    const project = await call('POST', '/api/cabinet/projects/', {
      title: 'Upload benchmark',
      platform: 'cint',
      respondent_language: 'en',
      audience_type: 'simple',
      flow_type: 'new',
    });
    const added = await call('POST', '/api/cabinet/projects/add-new-campaign/', {
      project_id: project.id,
      campaigns_data: [{ title: 'Big video', content_type: 'video' }],
    });
    const researchId: string = added.campaigns[0].id;

    const idle = await procStatus(pid);
    let peakRss = idle.rss;
    const sampler = setInterval(async () => {
      peakRss = Math.max(peakRss, (await procStatus(pid)).rss);
    }, 100);

    let abortedAt = 0;
    let resumedAt = 0;
    let pausedMs = 0;
    const started = performance.now();
    const mediaId = await new Promise<string>((resolve, reject) => {
      // The input is ignored: the file reader generates the bytes.
      const upload = new tus.Upload(Buffer.alloc(0), {
        endpoint: `${base}/mediaserver`,
        chunkSize,
        uploadSize: size,
        fileReader: fileSource(video, size),
        metadata: { filename: 'bench.webm', filetype: 'video/webm', campaign_id: researchId, role: 'content' },
        headers: { cookie: cookies.header(), [CSRF_HEADER]: cookies.get(CSRF_COOKIE) },
        retryDelays: [0, 1000, 3000],
        storeFingerprintForResuming: false,
        onProgress: (sent) => {
          if (!abortedAt && sent >= size / 2 + chunkSize / 3) {
            // The connection drops in the middle of a chunk; the client comes back a second later.
            abortedAt = sent;
            const pause = performance.now();
            upload.abort().then(async () => {
              await new Promise((r) => setTimeout(r, 1000));
              const head = await fetch(upload.url ?? '', {
                method: 'HEAD',
                headers: { 'tus-resumable': '1.0.0', cookie: cookies.header() },
              });
              resumedAt = Number(head.headers.get('upload-offset'));
              pausedMs = performance.now() - pause;
              upload.start();
            }, reject);
          }
        },
        onError: reject,
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader(MEDIA_ID_HEADER) ?? ''),
      });
      upload.start();
    });
    const seconds = (performance.now() - started - pausedMs) / 1000;
    clearInterval(sampler);
    const end = await procStatus(pid);
    peakRss = Math.max(peakRss, end.rss);

    let media = await call('GET', `/api/cabinet/media/${mediaId}/`);
    for (let i = 0; i < 100 && media.status === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      media = await call('GET', `/api/cabinet/media/${mediaId}/`);
    }
    const key = `campaigns/${researchId}/${mediaId}.webm`;
    const stored = s3 ? await new S3Storage(s3.storage).stream(key) : createReadStream(join(dataDir, 'media', key));
    const [expected, actual] = await Promise.all([sha256(bytes(video, 0, size)), sha256(stored)]);

    const mb = (n: number) => `${(n / MiB).toFixed(0)} MiB`;
    const into = s3 ? 'S3 (s3rver), multipart' : 'the local directory';
    console.log(
      `upload of ${mb(size)} in ${mb(chunkSize)} chunks (tus-js-client 4.3.1 -> @tus/server 2.4.5) into ${into}`,
    );
    console.log(`  aborted at ${mb(abortedAt)} sent; server had ${mb(resumedAt)}; resumed from there`);
    console.log(
      `  time ${seconds.toFixed(1)} s (1 s pause excluded), throughput ${(size / MiB / seconds).toFixed(0)} MiB/s`,
    );
    console.log(
      `  server RSS: idle ${mb(idle.rss)}, peak sampled ${mb(peakRss)} (+${mb(peakRss - idle.rss)} during the upload), VmHWM ${mb(end.hwm)}`,
    );
    console.log(
      `  stored ${media.size === size ? 'full size' : `WRONG size ${media.size}`}, sha256 ${expected === actual ? 'intact' : 'MISMATCH'}`,
    );
    console.log(
      `  media status ${media.status}${media.error ? ` (${media.error})` : ''}, ${media.width}×${media.height}, ${media.duration_seconds} s`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
    await s3?.stop();
  }
}

const serverAt = process.argv.indexOf('--server');
if (serverAt >= 0) await runServer(process.argv[serverAt + 1] ?? '');
else await main();
