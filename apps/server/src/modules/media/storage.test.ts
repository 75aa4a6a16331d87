import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStorage } from './storage.ts';

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

  it('refuses keys that leave its directory', async () => {
    await expect(storage.put('../x.bin', Buffer.from('x'), 1, 'x')).rejects.toThrow(/Invalid storage key/);
  });
});
