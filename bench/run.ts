// Foundation benchmarks: the cost every cabinet request and every login pays, on both databases.
// Prints figures; asserts nothing. `npm run bench` (PostgreSQL too when BENCH_DATABASE_URL is set).
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@emolens/contracts';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { type Config, loadConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { hashPassword, verifyPassword } from '../apps/server/src/modules/auth/password.ts';
import { createUser } from '../apps/server/src/modules/users/users.service.ts';

const PASSWORD = 'benchmark password';

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return `mean ${mean.toFixed(2)} ms  p50 ${at(0.5).toFixed(2)}  p95 ${at(0.95).toFixed(2)}  p99 ${at(0.99).toFixed(2)}  (${(1000 / mean).toFixed(0)}/s)`;
}

async function time(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

async function benchDatabase(label: string, database: Database) {
  await migrateToLatest(database.db);
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', WEB_DIST: '.tmp/none' }),
    // Measured here is the work behind each request, not the limits that would stop a flood of them.
    rateLimitPerMinute: 1_000_000,
    addressRateLimitPerMinute: 1_000_000,
    publicRateLimitPerMinute: 1_000_000,
    loginRateLimitPerMinute: 1_000_000,
  };
  const app = await buildApp(config, { database, logger: pino({ level: 'silent' }) });
  await createUser(app.ctx.deps.users, { username: `bench${Date.now()}`, password: PASSWORD, role: 'customer' }).then(
    async (user) => {
      const csrf = 'bench-csrf-token';
      const login = () =>
        app.inject({
          method: 'POST',
          url: '/api/auth/login/',
          headers: { cookie: `${CSRF_COOKIE}=${csrf}`, [CSRF_HEADER]: csrf, 'content-type': 'application/json' },
          payload: JSON.stringify({ username: user.username, password: PASSWORD }),
        });
      const first = await login();
      const session = first.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? '';
      const userData = () =>
        app.inject({
          method: 'GET',
          url: '/api/users/user-data/',
          headers: { cookie: `${SESSION_COOKIE}=${session}` },
        });
      await time(50, userData); // warm-up
      console.log(
        `${label}  GET /api/users/user-data/ (session lookup + serialisation), 500 runs: ${stats(await time(500, userData))}`,
      );
      console.log(
        `${label}  POST /api/auth/login/ (scrypt + session insert), 30 runs:            ${stats(await time(30, login))}`,
      );
      const health = () => app.inject({ method: 'GET', url: '/healthz' });
      console.log(
        `${label}  GET /healthz, 500 runs:                                               ${stats(await time(500, health))}`,
      );
    },
  );
  await app.close();
  await database.close();
}

const hash = await hashPassword(PASSWORD);
console.log(
  `scrypt N=2^15 r=8 (32 MiB), verify, 20 runs: ${stats(await time(20, () => verifyPassword(PASSWORD, hash)))}`,
);
await benchDatabase('pglite  ', await openDatabase({ kind: 'pglite', dataDir: undefined }));
const url = process.env.BENCH_DATABASE_URL;
if (url) await benchDatabase('postgres', await openDatabase({ kind: 'postgres', url }));
else console.log('postgres: set BENCH_DATABASE_URL to measure PostgreSQL too');
