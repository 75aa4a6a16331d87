import { configDefaults, defineConfig } from 'vitest/config';
import { postgresPassFiles } from './scripts/test-passes.mjs';

// `*.pg.test.ts` needs PostgreSQL (several processes on one database): it runs with TEST_DATABASE_URL, as the
// PostgreSQL pass of CI does, and is left out of the embedded-database pass.
const postgresOnly = process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts'];
// CI's PostgreSQL pass (TEST_PASS=postgres) runs only the files whose SQL it checks: scripts/test-passes.mjs.
const include =
  process.env.TEST_PASS === 'postgres'
    ? postgresPassFiles()
    : ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'];

export default defineConfig({
  test: {
    include,
    exclude: [...configDefaults.exclude, ...postgresOnly],
    pool: 'forks',
    // One migrated database per run, copied by each file that opens one (decision 029).
    globalSetup: ['apps/server/src/test/template-database.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file opens its own database; two cores run two files at once.
    maxWorkers: 2,
  },
});
