import { configDefaults, defineConfig } from 'vitest/config';

// `*.pg.test.ts` needs PostgreSQL (several processes on one database): it runs with TEST_DATABASE_URL, as the
// PostgreSQL pass of CI does, and is left out of the embedded-database pass.
const postgresOnly = process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts'];

export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
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
