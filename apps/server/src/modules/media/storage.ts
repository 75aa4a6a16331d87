import { randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, copyFile, mkdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageConfig } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import { workDirFor } from '../../jobs/work-dir.ts';

/**
 * Where finished uploads and derived files (poster frames) live, by key
 * (`campaigns/<campaign>/<media>.<ext>`). Everything streams: no file is held in memory.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores bytes, or a stream of `size` bytes, under the key (replacing what was there). */
  put(key: string, body: Buffer | Readable, size: number, contentType: string): Promise<void>;
  /** Moves a local file into storage (a rename when both are on one disk). */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /**
   * The stored bytes, or the inclusive byte range `start`…`end` of them. A missing key rejects with an error
   * of code ENOENT on both storages; an unreachable storage with `StorageUnavailable` (503).
   */
  stream(key: string, range?: ByteRange): Promise<Readable>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The stored file's size in bytes; a missing key rejects as `stream` does. */
  size(key: string): Promise<number>;
  /**
   * A local path of the stored file while `use` runs (downloaded to a temporary file when remote). For a
   * missing key `use` gets a path where no file is, on both storages.
   */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
  /**
   * A cheap check that the storage is there and this process may use it (the directory can be written; the bucket
   * exists and the keys are accepted): rejects with `StorageCheckFailed`, whose message says what is wrong.
   */
  check(): Promise<void>;
}

/** The storage is not usable: its message names the setting to look at (decision 069). */
export class StorageCheckFailed extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StorageCheckFailed';
  }
}

/** Local paths of stored files while `use` runs (each downloaded to a temporary file when storage is remote). */
export function withLocalFiles<T>(
  storage: Storage,
  keys: readonly string[],
  use: (paths: string[]) => Promise<T>,
): Promise<T> {
  const [first, ...rest] = keys;
  if (first === undefined) return use([]);
  return storage.withLocalFile(first, (path) => withLocalFiles(storage, rest, (paths) => use([path, ...paths])));
}

export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The stream's bytes, failing when there are more or fewer than `size`: a stream cut short (a client gone, a
 * file read while it was truncated) is refused whole on both storages instead of stored as a shorter file.
 */
function exactly(body: Readable, size: number): Readable {
  let seen = 0;
  const counted = new Transform({
    transform(piece: Buffer, _encoding, done) {
      seen += piece.length;
      if (seen > size) done(new Error(`The stream has more than its ${size} bytes`));
      else done(null, piece);
    },
    flush(done) {
      done(seen === size ? null : new Error(`The stream ended after ${seen} of its ${size} bytes`));
    },
  });
  body.once('error', (error) => counted.destroy(error));
  return body.pipe(counted);
}

const KEY = /^[a-zA-Z0-9][a-zA-Z0-9._/-]*$/;

function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '')) {
    throw new Error(`Invalid storage key: ${key}`);
  }
  return key;
}

export class LocalStorage implements Storage {
  readonly kind = 'local';

  constructor(private readonly dir: string) {}

  private path(key: string): string {
    const path = resolve(this.dir, checkKey(key));
    if (!path.startsWith(resolve(this.dir) + sep)) throw new Error(`Invalid storage key: ${key}`);
    return path;
  }

  /**
   * Folders this process has made or found (a recorder's chunks go to one folder per segment): the next bytes
   * written there skip the mkdir (measured: the chunk PUT's p99 on PostgreSQL at 200 sessions, decision 010).
   * A folder removed meanwhile (a session's data deleted) is made again on ENOENT. A stream, which cannot be
   * written twice, always makes its folder first.
   */
  private readonly folders = new Set<string>();

  async put(key: string, body: Buffer | Readable, size: number, _contentType: string): Promise<void> {
    const path = this.path(key);
    if (!Buffer.isBuffer(body)) body = exactly(body, size);
    const folder = dirname(path);
    if (!Buffer.isBuffer(body) || !this.folders.has(folder)) await this.makeFolder(folder);
    // Written beside and renamed: a reader never sees half a file.
    const partial = `${path}.${randomUUID()}.partial`;
    try {
      await this.writePartial(partial, body).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT' || !Buffer.isBuffer(body)) throw error;
        await this.makeFolder(folder);
        await this.writePartial(partial, body);
      });
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  private async makeFolder(folder: string): Promise<void> {
    await mkdir(folder, { recursive: true });
    if (this.folders.size >= 10_000) this.folders.clear();
    this.folders.add(folder);
  }

  /** Bytes in memory are one write (a recorder chunk), not a stream's open/write/close round. */
  private async writePartial(partial: string, body: Buffer | Readable): Promise<void> {
    if (Buffer.isBuffer(body)) await writeFile(partial, body);
    else await pipeline(body, createWriteStream(partial));
  }

  async putFile(key: string, file: string, _contentType: string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    try {
      await rename(file, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Another disk: copy beside the target, then rename.
      const partial = `${path}.${randomUUID()}.partial`;
      try {
        await copyFile(file, partial);
        await rename(partial, path);
      } catch (copyError) {
        await rm(partial, { force: true });
        throw copyError;
      }
      await unlink(file);
    }
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.path(key);
    await stat(path);
    return createReadStream(path, range);
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return (await stat(this.path(key)).catch(() => undefined))?.isFile() ?? false;
  }

  async size(key: string): Promise<number> {
    return (await stat(this.path(key))).size;
  }

  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    return use(this.path(key));
  }

  async check(): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true });
      await access(this.dir, constants.R_OK | constants.W_OK);
    } catch (error) {
      throw new StorageCheckFailed(`MEDIA_DIR ${this.dir} cannot be written: ${(error as Error).message}`, error);
    }
  }
}

/** Transport errors that mean the storage server did not answer (down, unreachable or hung). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * The storage server cannot be reached now (refused, timed out, or answered 5xx after the client's retries):
 * the request answers 503 with `storage.unavailable`, and a job is retried. The cause goes to the log.
 */
export class StorageUnavailable extends AppError {
  constructor(cause: unknown) {
    super('service_unavailable', { message: 'storage.unavailable' });
    this.name = 'StorageUnavailable';
    this.cause = cause;
  }
}

/** The storage server cannot be reached (refused, timed out, 5xx after the retries): 503, not 500. */
export function unreachable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; $fault?: string };
  if (e.name === 'TimeoutError' || (e.code !== undefined && UNREACHABLE.has(e.code))) return true;
  const status = e.$metadata?.httpStatusCode;
  return (status !== undefined && status >= 500) || e.$fault === 'server' || e.name === 'SlowDown';
}

/** An error of the storage as its callers see it: unreachable, or a missing key (ENOENT, as on the local disk). */
function storageError(error: unknown, key: string): unknown {
  if (unreachable(error)) return new StorageUnavailable(error);
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'NoSuchKey' || name === 'NotFound') {
    return Object.assign(new Error(`Stored file not found: ${key}`), { code: 'ENOENT', cause: error });
  }
  return error;
}

/** How long the S3 client waits before it gives up on a server (each attempt), and how often it tries. */
export interface S3Timeouts {
  /** To open the connection. */
  connectMs: number;
  /** Of silence, both ways, until the answer's headers (a hung server). */
  idleMs: number;
  /** Of silence while a stored file streams out: the reader may pause (a video player with a full buffer). */
  bodyIdleMs: number;
  /** Attempts per request (the SDK's standard retries with backoff). */
  maxAttempts: number;
}

/** A server that is down fails at once; a hung one in about maxAttempts × idleMs (15 s). */
export const S3_TIMEOUTS: S3Timeouts = { connectMs: 3_000, idleMs: 5_000, bodyIdleMs: 120_000, maxAttempts: 3 };

/** Streams go up in parts of this size, this many at a time: about 40 MiB of memory per upload, whatever its size. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 4;

/**
 * S3-compatible storage (AWS S3, MinIO, …) through `@aws-sdk/client-s3`; the tests run it against s3rver
 * (`test/s3-server.ts`). Streams go up as multipart uploads (`@aws-sdk/lib-storage`, bounded memory), bytes in
 * memory (a recorder chunk) as one PUT. Checksums only where S3 requires them: S3-compatible servers differ on
 * the SDK's newer default ones. Decision 023.
 */
export class S3Storage implements Storage {
  readonly kind = 's3';
  private readonly client: S3Client;
  /**
   * Multipart uploads' client: the server may stay silent for long while it joins a large object's parts
   * (CompleteMultipartUpload; measured: s3rver over 20 s for 1.9 GiB), so it waits `bodyIdleMs`, not `idleMs`.
   */
  private readonly uploads: S3Client;
  private readonly bucket: string;

  constructor(
    config: Extract<StorageConfig, { kind: 's3' }>,
    private readonly timeouts: S3Timeouts = S3_TIMEOUTS,
    /** Where `withLocalFile` downloads (WORK_DIR; the system's temporary directory only outside an installation). */
    private readonly workRoot: string = join(tmpdir(), 'emolens-work'),
  ) {
    this.bucket = config.bucket;
    const client = (socketTimeout: number) =>
      new S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
        maxAttempts: timeouts.maxAttempts,
        requestHandler: { connectionTimeout: timeouts.connectMs, socketTimeout },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.client = client(timeouts.idleMs);
    this.uploads = client(timeouts.bodyIdleMs);
  }

  async put(key: string, body: Buffer | Readable, size: number, contentType: string): Promise<void> {
    const params = { Bucket: this.bucket, Key: checkKey(key), ContentLength: size, ContentType: contentType };
    try {
      if (Buffer.isBuffer(body)) {
        await this.client.send(new PutObjectCommand({ ...params, Body: body }));
        return;
      }
      // One PUT when the stream is smaller than a part, else a multipart upload, aborted on failure: the key
      // has the whole new object or what it had before.
      await new Upload({
        client: this.uploads,
        params: { ...params, Body: exactly(body, size) },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
      }).done();
    } catch (error) {
      throw storageError(error, key);
    }
  }

  async putFile(key: string, file: string, contentType: string): Promise<void> {
    const { size } = await stat(file);
    await this.put(key, createReadStream(file), size, contentType);
    await unlink(file);
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    let out: GetObjectCommandOutput;
    try {
      out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: checkKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
    } catch (error) {
      throw storageError(error, key);
    }
    const body = out.Body as (Readable & { socket?: Socket }) | undefined;
    if (!body) throw new Error(`Empty object: ${key}`);
    // The answer has come: from now on silence is the reader's pace, not a hung server.
    body.socket?.setTimeout(this.timeouts.bodyIdleMs);
    const wanted = range ? range.end - range.start + 1 : undefined;
    // A server that answers more than the range asked for (s3rver 3.7.1 takes a range ending at byte 0 for an
    // open one, so the first byte alone came back as the whole object): the range's bytes only.
    if (wanted !== undefined && out.ContentLength !== undefined && out.ContentLength > wanted) {
      return Readable.from(firstBytes(body, wanted), { objectMode: false });
    }
    return body;
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
    } catch (error) {
      throw storageError(error, key);
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return true;
    } catch (error) {
      const mapped = storageError(error, key);
      if ((mapped as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw mapped;
    }
  }

  async size(key: string): Promise<number> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkKey(key) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      throw storageError(error, key);
    }
  }

  /** A missing key gives `use` a path where nothing is, as local storage does. */
  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const dir = await workDirFor(this.workRoot).make('s3');
    try {
      const path = join(dir, checkKey(key).split('/').pop() ?? 'file');
      const body = await this.stream(key).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      if (body)
        await pipeline(body, createWriteStream(path)).catch((error) => Promise.reject(storageError(error, key)));
      return await use(path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** One HEAD of the bucket: it exists, and the keys are accepted. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const bucket = `S3_BUCKET ${this.bucket}`;
      if (status === 404) throw new StorageCheckFailed(`${bucket} does not exist`, error);
      if (status === 403 || status === 401)
        throw new StorageCheckFailed(
          `${bucket} refuses S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (wrong keys, or no access to the bucket)`,
          error,
        );
      if (unreachable(error))
        throw new StorageCheckFailed(`S3 does not answer (S3_ENDPOINT): ${(error as Error).message}`, error);
      throw new StorageCheckFailed(`${bucket} cannot be used: ${(error as Error).message}`, error);
    }
  }
}

/** The first `count` bytes of a stream; the rest is not read (the stream is destroyed). */
async function* firstBytes(body: Readable, count: number): AsyncGenerator<Buffer> {
  let left = count;
  for await (const piece of body as AsyncIterable<Buffer>) {
    if (piece.length >= left) {
      yield piece.subarray(0, left);
      return;
    }
    left -= piece.length;
    yield piece;
  }
}

export function createStorage(config: StorageConfig, workDir?: string): Storage {
  return config.kind === 's3' ? new S3Storage(config, S3_TIMEOUTS, workDir) : new LocalStorage(config.dir);
}

const instances = new WeakMap<StorageConfig, Storage>();

/** One storage client per configuration (S3 clients keep their connections). */
export function storageFor(config: { storage: StorageConfig; workDir: string }): Storage {
  let storage = instances.get(config.storage);
  if (!storage) {
    storage = createStorage(config.storage, config.workDir);
    instances.set(config.storage, storage);
  }
  return storage;
}
