import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Config } from '../config.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * The usual setup of a server test file, in one call: one app for the whole file (made before its tests, closed
 * after them), its job queue started to send jobs when `queue` (the tests run them), and every table emptied before
 * each test. The app given back always reaches the file's current one.
 */
export function appPerFile(overrides: Partial<Config> = {}, options: { queue?: boolean } = {}): TestApp {
  let current: TestApp | undefined;
  const now = (): TestApp => {
    if (!current) throw new Error('the test app is made before the tests (beforeAll)');
    return current;
  };
  beforeAll(async () => {
    current = await createTestApp(overrides);
    if (options.queue) await current.app.ctx.queue.start({ work: false });
  });
  afterAll(() => current?.close());
  beforeEach(() => now().reset());
  return {
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
