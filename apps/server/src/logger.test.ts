import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { createLogger, formatForPeople } from './logger.ts';
import { openTestDatabase, type TestDatabase, testConfig } from './test/harness.ts';

describe('lines for people', () => {
  const line = (entry: object) => JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 2, 3, 4, 5), pid: 1, ...entry });

  it('puts the time, the level, the message and the fields on one line', () => {
    const out = formatForPeople(line({ hostname: 'h', reqId: 'req-1', msg: 'media probed', media: 'abc', fps: 25 }));
    expect(out).toMatch(/^\d\d:\d\d:\d\d INFO {2}media probed media=abc fps=25\n$/);
  });

  it('shows an error with its stack below, indented', () => {
    const out = formatForPeople(
      line({ level: 50, msg: 'request failed', err: { message: 'boom', stack: 'Error: boom\n    at x (y.ts:1)' } }),
    );
    expect(out.split('\n')).toEqual([
      expect.stringMatching(/ERROR request failed$/),
      '    Error: boom',
      '        at x (y.ts:1)',
      '',
    ]);
  });

  it('escapes control characters, so a logged value cannot drive the terminal', () => {
    const out = formatForPeople(line({ msg: 'user \u001b[2Jlogged in', username: 'a\nb' }));
    expect(out).toContain('user \\u001b[2Jlogged in username=a\\u000ab\n');
    expect(out.split('\n')).toHaveLength(2);
  });

  it('passes through what is not a log line', () => {
    expect(formatForPeople('plain text\n')).toBe('plain text\n');
  });
});

describe('request logging', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.dispose());

  async function appLogging(forPeople: boolean, logLevel: Config['logLevel']) {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const config = testConfig({ logLevel });
    const app: FastifyInstance = await buildApp(config, {
      database,
      logger: createLogger(config, { forPeople, destination }),
    });
    await app.inject({ method: 'GET', url: '/healthz' });
    // Answered 401 and logged as a rejected request.
    await app.inject({ method: 'GET', url: '/api/users/user-data/' });
    await app.close();
    return lines;
  }

  it('keeps requests out of a terminal at the info level', async () => {
    expect(await appLogging(true, 'info')).toEqual([]);
  });

  it('shows each request on one line in a terminal at the debug level', async () => {
    const lines = await appLogging(true, 'debug');
    expect(lines.some((l) => /DEBUG GET \/healthz 200 \d+ ms$/.test(l))).toBe(true);
    expect(lines.some((l) => /DEBUG GET \/api\/users\/user-data\/ 401 \d+ ms$/.test(l))).toBe(true);
    expect(lines.some((l) => /DEBUG request rejected code=unauthorized$/.test(l))).toBe(true);
    expect(lines.every((l) => !l.startsWith('{'))).toBe(true);
  });

  it('writes JSON lines with every request when the output is not a terminal', async () => {
    const entries = (await appLogging(false, 'info')).map((l) => JSON.parse(l));
    const completed = entries.filter((e) => e.msg === 'request completed');
    expect(completed.map((e) => e.res.statusCode)).toEqual([200, 401]);
    expect(entries.find((e) => e.msg === 'request rejected')).toMatchObject({ level: 30, code: 'unauthorized' });
  });
});
