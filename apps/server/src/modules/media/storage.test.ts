import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { objectKeys, startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import {
  LocalStorage,
  S3_TIMEOUTS,
  S3Storage,
  type Storage,
  StorageCheckFailed,
  StorageUnavailable,
} from './storage.ts';

const MiB = 1024 * 1024;

/** `size` bytes of a repeatable pattern, made on the fly in 64 KiB pieces (never whole in memory). */
function generated(size: number, seed = 7): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const piece = Buffer.alloc(Math.min(64 * 1024, size - sent));
      for (let i = 0; i < piece.length; i++) piece[i] = (sent + i + seed) % 251;
      sent += piece.length;
      this.push(piece);
    },
  });
}

async function digest(stream: AsyncIterable<Buffer>): Promise<{ sha: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of stream) {
    hash.update(piece);
    size += piece.length;
  }
  return { sha: hash.digest('hex'), size };
}

async function text(stream: Readable): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces).toString('utf8');
}

interface Subject {
  storage: Storage;
  /** The keys stored (local: files under the directory; S3: the bucket's listing through the API). */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

async function localSubject(): Promise<Subject> {
  const dir = await mkdtemp(join(tmpdir(), 'emolens-storage-'));
  return {
    storage: new LocalStorage(dir),
    keys: async () =>
      (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
        .sort(),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(() => s3.stop());

async function s3Subject(): Promise<Subject> {
  // A fresh key prefix per test: one bucket for the file.
  const prefix = `t${Math.random().toString(36).slice(2, 10)}`;
  const inner = new S3Storage(s3.storage);
  const at = (key: string) => `${prefix}/${key}`;
  const storage: Storage = {
    kind: 's3',
    put: (key, body, size, type) => inner.put(at(key), body, size, type),
    putFile: (key, file, type) => inner.putFile(at(key), file, type),
    stream: (key, range) => inner.stream(at(key), range),
    delete: (key) => inner.delete(at(key)),
    exists: (key) => inner.exists(at(key)),
    size: (key) => inner.size(at(key)),
    withLocalFile: (key, use) => inner.withLocalFile(at(key), use),
    check: () => inner.check(),
  };
  return {
    storage,
    keys: async () => (await objectKeys(s3, `${prefix}/`)).map((key) => key.slice(prefix.length + 1)),
    close: async () => undefined,
  };
}

describe.each([
  ['LocalStorage', localSubject],
  ['S3Storage (s3rver)', s3Subject],
])('%s: the storage contract', (_name, make) => {
  let subject: Subject;
  let storage: Storage;
  beforeEach(async () => {
    subject = await make();
    storage = subject.storage;
  });
  afterEach(() => subject.close());

  it('stores bytes and a stream, and gives them back whole or by inclusive range', async () => {
    await storage.put('rec/s/0/00000.bin', Buffer.from('hello bytes'), 11, 'application/octet-stream');
    await storage.put('c/one.txt', Readable.from([Buffer.from('one'), Buffer.from('two')]), 6, 'text/plain');
    expect(await text(await storage.stream('rec/s/0/00000.bin'))).toBe('hello bytes');
    expect(await text(await storage.stream('c/one.txt'))).toBe('onetwo');
    expect(await text(await storage.stream('c/one.txt', { start: 2, end: 4 }))).toBe('etw');
    expect(await text(await storage.stream('c/one.txt', { start: 5, end: 5 }))).toBe('o');
    // The first byte alone (a range ending at byte 0).
    expect(await text(await storage.stream('c/one.txt', { start: 0, end: 0 }))).toBe('o');
    expect(await subject.keys()).toEqual(['c/one.txt', 'rec/s/0/00000.bin']);
  });

  it('stores a 20 MiB stream made on the fly and gives it back byte for byte, ranges included', async () => {
    const size = 20 * MiB + 123;
    await storage.put('big/video.mp4', generated(size), size, 'video/mp4');
    expect(await digest(await storage.stream('big/video.mp4'))).toEqual(await digest(generated(size)));
    // A range across the first part boundary (8 MiB) and one at the very end.
    const across = await readAll(await storage.stream('big/video.mp4', { start: 8 * MiB - 3, end: 8 * MiB + 2 }));
    expect([...across]).toEqual([0, 1, 2, 3, 4, 5].map((i) => (8 * MiB - 3 + i + 7) % 251));
    const last = await readAll(await storage.stream('big/video.mp4', { start: size - 1, end: size - 1 }));
    expect([...last]).toEqual([(size - 1 + 7) % 251]);
  });

  it('replaces what a key held, by bytes or by stream', async () => {
    await storage.put('a/b.bin', Buffer.from('first'), 5, 'x');
    await storage.put('a/b.bin', Buffer.from('whole chunk'), 11, 'x');
    expect(await text(await storage.stream('a/b.bin'))).toBe('whole chunk');
    await storage.put('a/b.bin', Readable.from([Buffer.from('streamed')]), 8, 'x');
    expect(await text(await storage.stream('a/b.bin'))).toBe('streamed');
    expect(await subject.keys()).toEqual(['a/b.bin']);
  });

  it('deletes, tells what exists, and deleting a missing key is no error', async () => {
    await storage.put('d/x.bin', Buffer.from('x'), 1, 'x');
    expect(await storage.exists('d/x.bin')).toBe(true);
    expect(await storage.size('d/x.bin')).toBe(1);
    await expect(storage.size('d/missing.bin')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await storage.exists('d/missing.bin')).toBe(false);
    expect(await storage.exists('nowhere/missing.bin')).toBe(false);
    await storage.delete('d/x.bin');
    expect(await storage.exists('d/x.bin')).toBe(false);
    await storage.delete('d/x.bin');
    await storage.delete('nowhere/missing.bin');
    expect(await subject.keys()).toEqual([]);
  });

  it('moves a local file in (putFile): the file is gone, its bytes are stored', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'emolens-putfile-'));
    try {
      const small = join(dir, 'poster.jpg');
      await writeFile(small, 'jpeg bytes');
      await storage.putFile('p/poster.jpg', small, 'image/jpeg');
      expect(existsSync(small)).toBe(false);
      expect(await text(await storage.stream('p/poster.jpg'))).toBe('jpeg bytes');

      const large = join(dir, 'large.bin');
      await pipeline(generated(17 * MiB, 3), createWriteStream(large));
      const expected = await digest(generated(17 * MiB, 3));
      await storage.putFile('p/large.bin', large, 'application/octet-stream');
      expect(existsSync(large)).toBe(false);
      expect(await digest(await storage.stream('p/large.bin'))).toEqual(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lends a local path of a stored file while `use` runs', async () => {
    await storage.put('w/clip.webm', Buffer.from('webm bytes'), 10, 'video/webm');
    const content = await storage.withLocalFile('w/clip.webm', (path) => readFile(path, 'utf8'));
    expect(content).toBe('webm bytes');
  });

  it('treats a missing key alike: stream rejects with ENOENT, withLocalFile lends a path where nothing is', async () => {
    await expect(storage.stream('m/missing.bin')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(storage.stream('m/missing.bin', { start: 0, end: 1 })).rejects.toMatchObject({ code: 'ENOENT' });
    const seen = await storage.withLocalFile('m/missing.bin', async (path) => ({ exists: existsSync(path), path }));
    expect(seen.exists).toBe(false);
    expect(seen.path.endsWith('missing.bin')).toBe(true);
  });

  it('refuses keys that leave its directory or are not plain paths', async () => {
    await expect(storage.put('../x.bin', Buffer.from('x'), 1, 'x')).rejects.toThrow(/Invalid storage key/);
    await expect(storage.stream('a//b.bin')).rejects.toThrow(/Invalid storage key/);
  });

  it('keeps nothing of a stream that fails half-way, and leaves what the key held before', async () => {
    await storage.put('f/file.bin', Buffer.from('before'), 6, 'x');
    let pieces = 0;
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(MiB));
        if (++pieces === 10) this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put('f/file.bin', failing, 20 * MiB, 'x')).rejects.toThrow();
    // A stream shorter or longer than its declared size is refused whole.
    await expect(storage.put('f/new.bin', generated(MiB), 2 * MiB, 'x')).rejects.toThrow(/ended after/);
    await expect(storage.put('f/new.bin', generated(2 * MiB), MiB, 'x')).rejects.toThrow(/more than/);
    expect(await text(await storage.stream('f/file.bin'))).toBe('before');
    expect(await subject.keys()).toEqual(['f/file.bin']);
  });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

describe('LocalStorage', () => {
  let dir: string;
  let storage: LocalStorage;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emolens-storage-'));
    storage = new LocalStorage(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const read = (key: string) => readFile(join(dir, key), 'utf8');

  it('writes a stream beside the target and renames it: no partial file is left', async () => {
    await storage.put('a/b/file.bin', Readable.from([Buffer.from('one'), Buffer.from('two')]), 6, 'x');
    expect(await read('a/b/file.bin')).toBe('onetwo');
    expect(await readdir(join(dir, 'a/b'))).toEqual(['file.bin']);
  });

  it('writes bytes in memory beside the target and renames them, replacing what was there', async () => {
    await storage.put('rec/s/00001.bin', Buffer.from('first'), 5, 'x');
    await storage.put('rec/s/00001.bin', Buffer.from('whole chunk'), 11, 'x');
    expect(await read('rec/s/00001.bin')).toBe('whole chunk');
    expect(await readdir(join(dir, 'rec/s'))).toEqual(['00001.bin']);
  });

  it('writes into a folder it made before, and makes it again when it was removed meanwhile', async () => {
    await storage.put('rec/s/0/00000.bin', Buffer.from('a'), 1, 'x');
    await storage.put('rec/s/0/00001.bin', Buffer.from('b'), 1, 'x');
    // The session's data deleted while its folder is remembered.
    await rm(join(dir, 'rec/s'), { recursive: true });
    await storage.put('rec/s/0/00002.bin', Buffer.from('c'), 1, 'x');
    expect(await readdir(join(dir, 'rec/s/0'))).toEqual(['00002.bin']);
    await rm(join(dir, 'rec/s'), { recursive: true });
    await storage.put('rec/s/0/00003.bin', Readable.from([Buffer.from('d')]), 1, 'x');
    expect(await read('rec/s/0/00003.bin')).toBe('d');
  });
});

describe('S3Storage', () => {
  it('sends a stream as a multipart upload of 8 MiB parts, and bytes in memory as one PUT', async () => {
    const storage = new S3Storage(s3.storage);
    const from = s3.requests.length;
    await storage.put('mp/video.mp4', generated(20 * MiB), 20 * MiB, 'video/mp4');
    const upload = s3.requests.slice(from);
    expect(upload.filter((r) => r.startsWith('POST ') && r.includes('uploads'))).toHaveLength(1);
    expect(upload.filter((r) => r.startsWith('PUT ') && r.includes('partNumber='))).toHaveLength(3);
    expect(upload.filter((r) => r.startsWith('POST ') && r.includes('uploadId='))).toHaveLength(1);

    const small = s3.requests.length;
    await storage.put('mp/chunk.bin', Buffer.alloc(300 * 1024), 300 * 1024, 'application/octet-stream');
    expect(s3.requests.slice(small)).toEqual([
      expect.stringMatching(/^PUT \/[^?]+\/mp\/chunk\.bin(\?x-id=PutObject)?$/),
    ]);
  });

  it('downloads the file a job works on into the work directory (WORK_DIR), and removes it after', async () => {
    const workRoot = await mkdtemp(join(tmpdir(), 'emolens-s3-work-'));
    try {
      const storage = new S3Storage(s3.storage, S3_TIMEOUTS, workRoot);
      await storage.put('wd/interview.webm', Buffer.from('a face'), 6, 'video/webm');
      const lent = await storage.withLocalFile('wd/interview.webm', async (path) => ({
        path,
        content: await readFile(path, 'utf8'),
      }));
      expect(lent.content).toBe('a face');
      // In this process's own directory (jobs/work-dir.ts), where nothing is left.
      const own = join(workRoot, (await readdir(workRoot))[0] as string);
      expect(lent.path.startsWith(join(own, 's3-'))).toBe(true);
      expect(await readdir(own)).toEqual([]);
    } finally {
      await rm(workRoot, { recursive: true, force: true });
    }
  });

  it('keeps answering a reader that pauses longer than the idle timeout of a hung server', async () => {
    const storage = new S3Storage(s3.storage, { ...S3_TIMEOUTS, idleMs: 300 });
    await storage.put('slow/file.bin', generated(4 * MiB), 4 * MiB, 'x');
    const body = await storage.stream('slow/file.bin');
    body.pause();
    await sleep(1_200);
    expect(await digest(body)).toEqual(await digest(generated(4 * MiB)));
  });

  describe('when the S3 server is down', () => {
    it('fails at once with StorageUnavailable (503, storage.unavailable), and works again when it is back', async () => {
      const storage = new S3Storage(s3.storage);
      await storage.put('down/kept.bin', Buffer.from('kept'), 4, 'x');
      await s3.pause();
      try {
        const started = Date.now();
        const failures = await Promise.all([
          storage.put('down/chunk.bin', Buffer.from('x'), 1, 'x').catch((e) => e),
          storage.put('down/stream.bin', generated(10 * MiB), 10 * MiB, 'x').catch((e) => e),
          storage.stream('down/kept.bin').catch((e) => e),
          storage.exists('down/kept.bin').catch((e) => e),
          storage.delete('down/kept.bin').catch((e) => e),
          storage.withLocalFile('down/kept.bin', async () => 'used').catch((e) => e),
        ]);
        for (const failure of failures) {
          expect(failure).toBeInstanceOf(StorageUnavailable);
          expect(failure).toMatchObject({ statusCode: 503, ref: { key: 'storage.unavailable' } });
        }
        expect(Date.now() - started).toBeLessThan(5_000);
      } finally {
        await s3.start();
      }
      expect(await text(await storage.stream('down/kept.bin'))).toBe('kept');
      await storage.put('down/chunk.bin', Buffer.from('x'), 1, 'x');
      expect(await objectKeys(s3, 'down/')).toEqual(['down/chunk.bin', 'down/kept.bin']);
    });

    it('keeps nothing of a multipart upload the server stopped in the middle of', async () => {
      const storage = new S3Storage(s3.storage);
      const slow = generated(40 * MiB);
      let sent = 0;
      slow.on('data', (piece: Buffer) => {
        sent += piece.length;
        if (sent >= 12 * MiB && sent - piece.length < 12 * MiB) void s3.pause();
      });
      try {
        await expect(storage.put('cut/video.mp4', slow, 40 * MiB, 'video/mp4')).rejects.toBeInstanceOf(
          StorageUnavailable,
        );
      } finally {
        await s3.start();
      }
      expect(await storage.exists('cut/video.mp4')).toBe(false);
      expect(await objectKeys(s3, 'cut/')).toEqual([]);
    });
  });

  describe('when the S3 server accepts connections and never answers', () => {
    let hung: Server;
    let endpoint: string;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      hung = createServer((socket) => {
        sockets.add(socket);
        socket.on('data', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
      endpoint = `http://127.0.0.1:${(hung.address() as { port: number }).port}`;
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    });

    it('gives up with StorageUnavailable within its idle timeout × attempts', async () => {
      const storage = new S3Storage({ ...s3.storage, endpoint }, { ...S3_TIMEOUTS, idleMs: 400, maxAttempts: 2 });
      const started = Date.now();
      await expect(storage.stream('any/file.bin')).rejects.toBeInstanceOf(StorageUnavailable);
      await expect(storage.put('any/chunk.bin', Buffer.from('x'), 1, 'x')).rejects.toBeInstanceOf(StorageUnavailable);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('gives up in seconds with the production timeouts', { timeout: 40_000 }, async () => {
      const storage = new S3Storage({ ...s3.storage, endpoint });
      const started = Date.now();
      await expect(storage.exists('any/file.bin')).rejects.toBeInstanceOf(StorageUnavailable);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(S3_TIMEOUTS.idleMs * S3_TIMEOUTS.maxAttempts);
      expect(waited).toBeLessThan(S3_TIMEOUTS.idleMs * S3_TIMEOUTS.maxAttempts + 5_000);
    });
  });
});

describe('the storage check at start and in /healthz (decision 069)', () => {
  it('passes for the bucket with its keys, and for a writable directory (made when missing)', async () => {
    await expect(new S3Storage(s3.storage).check()).resolves.toBeUndefined();
    const dir = await mkdtemp(join(tmpdir(), 'emolens-check-'));
    try {
      await expect(new LocalStorage(join(dir, 'media')).check()).resolves.toBeUndefined();
      expect(existsSync(join(dir, 'media'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names what is wrong: a missing bucket, refused keys, a server that does not answer, an unwritable path', async () => {
    await expect(new S3Storage({ ...s3.storage, bucket: 'no-such-bucket' }).check()).rejects.toThrow(
      new StorageCheckFailed('S3_BUCKET no-such-bucket does not exist'),
    );
    // A key the server does not know (s3rver checks the key id of a HEAD, not its signature).
    await expect(new S3Storage({ ...s3.storage, accessKeyId: 'NOBODY' }).check()).rejects.toThrow(
      /refuses S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
    const closed = new S3Storage({ ...s3.storage, endpoint: 'http://127.0.0.1:1' }, { ...S3_TIMEOUTS, maxAttempts: 1 });
    await expect(closed.check()).rejects.toThrow(/^S3 does not answer \(S3_ENDPOINT\)/);
    const file = join(await mkdtemp(join(tmpdir(), 'emolens-check-')), 'a-file');
    await writeFile(file, 'x');
    await expect(new LocalStorage(join(file, 'media')).check()).rejects.toThrow(/^MEDIA_DIR .* cannot be written/);
    await rm(file, { force: true });
  });
});
