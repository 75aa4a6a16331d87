import { configDefaults, defineConfig } from 'vitest/config';
import { postgresPassFiles } from './scripts/test-passes.mjs';

// `*.pg.test.ts` needs PostgreSQL (several processes on one database): it runs with TEST_DATABASE_URL, as the
// PostgreSQL pass of CI does, and is left out of the embedded-database pass.
const postgresOnly = process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts'];
const exclude = [...configDefaults.exclude, ...postgresOnly];
// CI's PostgreSQL pass (TEST_PASS=postgres) runs only the files whose SQL it checks: scripts/test-passes.mjs.
const SERVER = 'apps/server/src/';
const listed = process.env.TEST_PASS === 'postgres' ? postgresPassFiles() : null;
const server = listed ? listed.filter((p) => p.startsWith(SERVER)) : [`${SERVER}**/*.test.ts`];
const rest = listed
  ? listed.filter((p) => !p.startsWith(SERVER))
  : ['apps/web/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'];
// Privacy mode's equivalence test plays a phantom to Chromium's fake camera in real time: beside other files' engines
// its page missed 124 of 453 camera frames and read a picture 3 s old, and the tracking the test compares parted
// (decision 089). It runs after the other files, alone on the cores.
const ALONE = ['packages/phantom/src/validation/browser-equivalence.test.ts'];

export default defineConfig({
  test: {
    exclude,
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file opens its own database; two cores run two files at once.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: server,
          // One migrated database per run, copied by each file that opens one (decision 029).
          globalSetup: ['apps/server/src/test/template-database.ts'],
          // The server's files share a worker's loaded modules instead of loading the app again for each file
          // (about 2.8 s of import a file); each file still makes its own app and database (`appPerFile`), and
          // nothing of one file's state is read by another (decision 029).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web and packages',
          include: rest,
          exclude: [...exclude, ...ALONE],
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: listed ? listed.filter((p) => ALONE.includes(p)) : ALONE,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
