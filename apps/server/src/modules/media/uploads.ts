import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { S3Store, type Options as S3StoreOptions } from '@tus/s3-store';
import type { Upload } from '@tus/server';
import type { Logger } from 'pino';
import type { Config, StorageConfig } from '../../config.ts';
import type { MediaRepository } from './media.repository.ts';
import { S3_TIMEOUTS, StorageUnavailable, unreachable } from './storage.ts';

/** Finished uploads are taken here (this process's local disk) while they are checked and stored. */
export function finishingDir(config: Config): string {
  return join(config.uploadDir, '.finishing');
}

/**
 * Where unfinished tus uploads are kept, and how a finished one is taken out to be checked and stored (decision
 * 069): in the bucket when the storage is S3, so that any API process continues and finishes any upload and
 * UPLOAD_DIR need not be shared; on the local disk (UPLOAD_DIR) otherwise, for one API process.
 */
export interface UploadArea {
  readonly kind: 'disk' | 's3';
  readonly datastore: FileStore | S3Store;
  /**
   * Takes a complete upload out of the area into a local file, once: the path, or undefined when another request
   * (at this or another process) has taken it already.
   */
  take(upload: Upload): Promise<string | undefined>;
  /** The storage did not answer: the upload is put back as it was, complete, for the client's retry to finish. */
  putBack(upload: Upload, file: string): Promise<void>;
  /** The upload is attached or refused for good: what is left of it in the area goes. */
  done(upload: Upload): Promise<void>;
  /** Removes expired unfinished uploads and the leftovers of interrupted finishes; how many. */
  clean(now?: number): Promise<number>;
}

/** No cache of the uploads' metadata in this process: another process may have written or finished it since. */
const NO_CACHE: NonNullable<S3StoreOptions['cache']> = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

/**
 * @tus/s3-store, with an unreachable bucket told from a missing upload (its `getUpload` answers both "not found",
 * which would make the client start again), and the removal of a finished upload's objects (its own `remove` only
 * aborts unfinished ones).
 */
class BucketStore extends S3Store {
  override async getUpload(id: string): Promise<Upload> {
    try {
      await this.getMetadata(id);
    } catch (error) {
      if (unreachable(error)) throw new StorageUnavailable(error);
    }
    return super.getUpload(id);
  }

  async discard(id: string): Promise<void> {
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true },
    });
  }
}

export function createUploadArea(config: Config, media: MediaRepository, log: Logger): UploadArea {
  mkdirSync(finishingDir(config), { recursive: true });
  return config.storage.kind === 's3' ? bucketArea(config, config.storage, media, log) : diskArea(config);
}

function diskArea(config: Config): UploadArea {
  const store = new FileStore({ directory: config.uploadDir, expirationPeriodInMilliseconds: config.uploadExpiryMs });
  return {
    kind: 'disk',
    datastore: store,
    async take(upload) {
      // One rename takes it out of the upload area: a repeated final PATCH finds nothing to attach.
      const file = join(finishingDir(config), upload.id);
      try {
        await rename(upload.storage?.path ?? join(config.uploadDir, upload.id), file);
      } catch {
        return undefined;
      }
      await store.configstore.delete(upload.id).catch(() => undefined);
      return file;
    },
    async putBack(upload, file) {
      if (!existsSync(file)) return;
      await store.configstore.set(upload.id, upload);
      await rename(file, upload.storage?.path ?? join(config.uploadDir, upload.id));
    },
    async done() {},
    async clean(now = Date.now()) {
      let removed = await store.deleteExpired();
      removed += await removeOldFiles(finishingDir(config), now - config.uploadExpiryMs);
      // Metadata without its data file (or the reverse) can only be a leftover as old as the expiry.
      const cutoff = now - config.uploadExpiryMs;
      const names = new Set(await readdir(config.uploadDir));
      for (const name of names) {
        if (name.startsWith('.')) continue;
        const orphan = name.endsWith('.json') ? !names.has(name.slice(0, -5)) : !names.has(`${name}.json`);
        if (!orphan) continue;
        const info = await stat(join(config.uploadDir, name)).catch(() => undefined);
        if (info?.isFile() && info.mtimeMs < cutoff) {
          await rm(join(config.uploadDir, name), { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}

/** S3's "no such object": the upload was finished (and its objects removed) by another request. */
const missing = (error: unknown) => ['NoSuchKey', 'NotFound'].includes((error as { name?: string })?.name ?? '');

function bucketArea(
  config: Config,
  s3: Extract<StorageConfig, { kind: 's3' }>,
  media: MediaRepository,
  log: Logger,
): UploadArea {
  const store = new BucketStore({
    s3ClientConfig: {
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      maxAttempts: S3_TIMEOUTS.maxAttempts,
      requestHandler: { connectionTimeout: S3_TIMEOUTS.connectMs, socketTimeout: S3_TIMEOUTS.bodyIdleMs },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    },
    cache: NO_CACHE,
    // Expiry by the clean-up job (below), not by object tags, which not every S3-compatible server keeps.
    useTags: false,
    expirationPeriodInMilliseconds: config.uploadExpiryMs,
  });
  return {
    kind: 's3',
    datastore: store,
    async take(upload) {
      // The claim in the database stands for the disk's rename: one request of one process finishes the upload.
      if (!(await media.claimUploadFinish(upload.id))) return undefined;
      const file = join(finishingDir(config), upload.id);
      try {
        const body = (await store.read(upload.id)) as Readable;
        await pipeline(body, createWriteStream(file));
        return file;
      } catch (error) {
        await rm(file, { force: true });
        await media.releaseUploadFinish(upload.id);
        if (missing(error)) return undefined;
        throw new StorageUnavailable(error);
      }
    },
    async putBack(upload, file) {
      await rm(file, { force: true });
      await media.releaseUploadFinish(upload.id);
    },
    async done(upload) {
      try {
        await store.discard(upload.id);
        await media.releaseUploadFinish(upload.id);
      } catch (err) {
        // The claim stays, so nothing finishes it again; the clean-up job removes both once they are old.
        log.warn({ err, upload: upload.id }, 'a finished upload is left in the bucket for the clean-up');
      }
    },
    async clean(now = Date.now()) {
      let removed = await store.deleteExpired();
      for (const id of await media.staleUploadFinishes(config.uploadExpiryMs)) {
        await store.discard(id);
        await media.releaseUploadFinish(id);
        removed++;
      }
      removed += await removeOldFiles(finishingDir(config), now - config.uploadExpiryMs);
      return removed;
    },
  };
}

/** Files in `dir` last changed before `cutoff` (left by a process that stopped half-way); how many went. */
async function removeOldFiles(dir: string, cutoff: number): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) {
      await rm(join(dir, name), { force: true, recursive: true });
      removed++;
    }
  }
  return removed;
}
