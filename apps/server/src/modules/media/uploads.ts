import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import type { Config } from '../../config.ts';

/** Finished uploads are moved here (one atomic rename) while they are checked and stored. */
export function finishingDir(config: Config): string {
  return join(config.uploadDir, '.finishing');
}

/**
 * The tus data store: partial uploads on the local disk (`UPLOAD_DIR`), streamed to disk chunk by
 * chunk. Uploads unfinished after `UPLOAD_EXPIRY_HOURS` expire and are removed by the clean-up job.
 */
export function createUploadStore(config: Config): FileStore {
  mkdirSync(finishingDir(config), { recursive: true });
  return new FileStore({ directory: config.uploadDir, expirationPeriodInMilliseconds: config.uploadExpiryMs });
}

/**
 * Removes expired partial uploads (with their metadata), and files left in the finishing area by a
 * process that stopped half-way. Returns how many were removed.
 */
export async function cleanAbandonedUploads(config: Config, now = Date.now()): Promise<number> {
  const store = createUploadStore(config);
  let removed = await store.deleteExpired();
  const cutoff = now - config.uploadExpiryMs;
  const dir = finishingDir(config);
  for (const name of await readdir(dir)) {
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) {
      await rm(join(dir, name), { force: true, recursive: true });
      removed++;
    }
  }
  // Metadata without its data file (or the reverse) can only be a leftover as old as the expiry.
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
}
