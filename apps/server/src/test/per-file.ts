import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Config } from '../config.ts';
import { createTestApp, createTestAppWithFiles, type TestApp } from './harness.ts';

/**
 * The usual setup of a server test file, in one call: one app for the whole file (made before its tests, closed
 * after them), its job queue started to send jobs when `queue` (the tests run them), and every table emptied before
 * each test. The app given back always reaches the file's current one.
 */
export function appPerFile(overrides: Partial<Config> = {}, options: { queue?: boolean } = {}): TestApp {
  return perFile(() => createTestApp(overrides), options);
}

/** `appPerFile` for an app that stores its files on disk, in a folder of its own (`dir`) removed when it closes. */
export function appWithFilesPerFile(
  name: string,
  overrides: Partial<Config> = {},
  options: { queue?: boolean } = {},
): TestApp & { dir: string } {
  const t = perFile(() => createTestAppWithFiles(name, overrides), options);
  return Object.defineProperty(t, 'dir', { get: () => t.now().dir, enumerable: true }) as unknown as TestApp & {
    dir: string;
  };
}

/** `appPerFile` for an app made by `make` (closed by its own `close`); `now()` gives the file's current one whole. */
export function perFile<T extends TestApp>(
  make: () => Promise<T>,
  options: { queue?: boolean } = {},
): TestApp & { now(): T } {
  let current: T | undefined;
  const now = (): T => {
    if (!current) throw new Error('the test app is made before the tests (beforeAll)');
    return current;
  };
  beforeAll(async () => {
    current = await make();
    if (options.queue) await current.app.ctx.queue.start({ work: false });
  });
  afterAll(() => current?.close());
  beforeEach(() => now().reset());
  return {
    now,
    get app() {
      return now().app;
    },
    get database() {
      return now().database;
    },
    get logs() {
      return now().logs;
    },
    reset: () => now().reset(),
    close: () => now().close(),
  };
}
